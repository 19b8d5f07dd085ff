import { inspect } from "node:util";
import {
  DeserializationError,
  defineComponent,
  JunctionError,
  Secret,
  SerializationError,
  secretSchema,
} from "@junction/core";
import { describe, expect, test } from "vitest";
import { z } from "zod";

const TOKEN = "sk-live-VERY-SECRET-0123456789";

describe("Secret.fromEnvVar", () => {
  test("resolves to the first variable that is set", () => {
    const secret = Secret.fromEnvVar(["FIRST_KEY", "SECOND_KEY"]);
    expect(secret.resolve({ SECOND_KEY: "two" })).toBe("two");
    expect(secret.resolve({ FIRST_KEY: "one", SECOND_KEY: "two" })).toBe("one");
    expect(secret.resolve({ FIRST_KEY: "", SECOND_KEY: "two" })).toBe("two");
  });

  test("reads process.env by default", () => {
    process.env.JUNCTION_SECRET_TEST_KEY = "from-env";
    try {
      expect(Secret.fromEnvVar("JUNCTION_SECRET_TEST_KEY").resolve()).toBe("from-env");
    } finally {
      delete process.env.JUNCTION_SECRET_TEST_KEY;
    }
  });

  test("a strict secret with no variable set throws an error naming the variables", () => {
    const secret = Secret.fromEnvVar(["FIRST_KEY", "SECOND_KEY"]);
    expect(() => secret.resolve({})).toThrowError(/"FIRST_KEY", "SECOND_KEY"/);
    try {
      secret.resolve({});
    } catch (error) {
      expect(JunctionError.isInstance(error) && error.code).toBe("SECRET_NOT_SET");
    }
  });

  test("a non-strict secret with no variable set resolves to undefined", () => {
    expect(Secret.fromEnvVar("NOPE_KEY", { strict: false }).resolve({})).toBeUndefined();
  });

  test("serializes as an env_var reference and reads back", () => {
    const secret = Secret.fromEnvVar("OPENAI_API_KEY", { strict: false });
    const json = secret.toJSON();
    expect(json).toEqual({ type: "env_var", env_vars: ["OPENAI_API_KEY"], strict: false });
    expect(JSON.parse(JSON.stringify({ apiKey: secret }))).toEqual({ apiKey: json });
    const back = Secret.fromJSON(json);
    expect(back.envVars).toEqual(["OPENAI_API_KEY"]);
    expect(back.strict).toBe(false);
    expect(Secret.fromJSON({ type: "env_var", env_vars: ["A"] }).strict).toBe(true);
  });

  test("rejects an empty list of names", () => {
    expect(() => Secret.fromEnvVar([])).toThrowError(/at least one/);
  });
});

describe("Secret.fromToken", () => {
  const secret = Secret.fromToken(TOKEN);

  test("resolves to the token", () => {
    expect(secret.resolve()).toBe(TOKEN);
  });

  test("never shows the token in toString, inspect, template strings or spread", () => {
    expect(String(secret)).not.toContain(TOKEN);
    expect(`${secret}`).toBe("Secret(token: ***)");
    expect(inspect(secret)).not.toContain(TOKEN);
    expect(inspect({ nested: { secret } }, { depth: 10, showHidden: true })).not.toContain(TOKEN);
    expect(JSON.stringify({ ...secret })).not.toContain(TOKEN);
    expect(Object.keys(secret)).toEqual([]);
  });

  test("refuses to serialize, without quoting the token", () => {
    expect(() => secret.toJSON()).toThrowError(SerializationError);
    expect(() => JSON.stringify({ apiKey: secret })).toThrowError(/Secret.fromEnvVar/);
    try {
      JSON.stringify(secret);
    } catch (error) {
      expect(String(error)).not.toContain(TOKEN);
      expect(inspect(error)).not.toContain(TOKEN);
    }
  });

  test("rejects an empty token", () => {
    expect(() => Secret.fromToken("")).toThrowError(/non-empty/);
  });
});

describe("Secret.fromJSON", () => {
  test("refuses token documents and literal strings without quoting them", () => {
    for (const doc of [TOKEN, { type: "token", token: TOKEN }, { type: "env_var", env_vars: [TOKEN, 3] }]) {
      let caught: unknown;
      try {
        Secret.fromJSON(doc);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(DeserializationError);
      expect(inspect(caught, { depth: 10 })).not.toContain(TOKEN);
    }
  });

  test("lists every problem with its path", () => {
    try {
      Secret.fromJSON({ type: "env", env_vars: [], strict: "yes", extra: 1 });
      expect.unreachable();
    } catch (error) {
      expect((error as DeserializationError).issues.map((issue) => issue.path.join("."))).toEqual([
        "type",
        "extra",
        "env_vars",
        "strict",
      ]);
    }
  });
});

describe("secretSchema", () => {
  const Client = defineComponent({
    type: "test.secret.Client",
    params: z.object({ apiKey: secretSchema.default(() => Secret.fromEnvVar("TEST_CLIENT_KEY")) }),
    inputs: {},
    outputs: { key: z.string().optional() },
    run: (_inputs, { params }) => ({ key: params.apiKey.resolve({ TEST_CLIENT_KEY: "k" }) }),
  });

  test("accepts a Secret, the env_var form, or the default", async () => {
    expect(new Client().params.apiKey.envVars).toEqual(["TEST_CLIENT_KEY"]);
    expect(new Client({ apiKey: Secret.fromToken(TOKEN) }).params.apiKey.resolve()).toBe(TOKEN);
    const fromDoc = new Client({ apiKey: { type: "env_var", env_vars: ["OTHER"], strict: false } });
    expect(fromDoc.params.apiKey.envVars).toEqual(["OTHER"]);
    expect(await new Client().run({})).toEqual({ key: "k" });
  });

  test("rejects a literal token with a clear message that does not quote it", () => {
    const result = secretSchema.safeParse(TOKEN);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toMatch(/literal string is not accepted/);
    expect(inspect(result.error, { depth: 10 })).not.toContain(TOKEN);
    expect(() => new Client({ apiKey: TOKEN as never })).toThrowError(/params\.apiKey/);
  });
});
