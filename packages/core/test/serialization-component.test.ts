import { inspect } from "node:util";
import {
  type AnyComponent,
  createRegistry,
  DeserializationError,
  defineComponent,
  deserializeComponent,
  isComponent,
  Secret,
  SerializationError,
  secretSchema,
  serializeComponent,
} from "@junction/core";
import { describe, expect, test } from "vitest";
import { z } from "zod";

const Greeter = defineComponent({
  type: "test.ser.Greeter",
  params: z.object({
    greeting: z.string().default("Hello"),
    times: z.number().int().min(1).default(1),
    tags: z.array(z.string()).default([]),
    apiKey: secretSchema.default(() => Secret.fromEnvVar("GREETER_KEY")),
  }),
  inputs: { name: z.string() },
  outputs: { text: z.string() },
  run: ({ name }, { params }) => ({ text: `${params.greeting}, ${name}!`.repeat(params.times) }),
});

const shout = (text: string) => text.toUpperCase();

/** Holds a nested component and a function: serializes them through the context. */
const Wrapper = defineComponent({
  type: "test.ser.Wrapper",
  params: z.object({
    inner: z.custom<AnyComponent>(isComponent, "expected a component"),
    transform: z.custom<(text: string) => string>((value) => typeof value === "function"),
  }),
  inputs: { name: z.string() },
  outputs: { text: z.string() },
  run: async ({ name }, { params }) => {
    const out = await params.inner.run({ name });
    return { text: params.transform(String(out.text)) };
  },
  serializer: {
    toInitParameters: (params, context) => ({
      inner: context.serializeComponent(params.inner, "inner"),
      transform: context.functionName(params.transform, "transform"),
    }),
    fromInitParameters: (init, context) => ({
      inner: context.deserializeComponent(init.inner, "inner"),
      transform: context.resolveFunction(init.transform, "transform"),
    }),
  },
});

const registry = createRegistry().registerFunction("test.shout", shout);

describe("serializeComponent", () => {
  test("writes the validated params, secrets as env-var references", () => {
    expect(serializeComponent(new Greeter({ greeting: "Hi", tags: ["a"] }))).toEqual({
      type: "test.ser.Greeter",
      init_parameters: {
        greeting: "Hi",
        times: 1,
        tags: ["a"],
        apiKey: { type: "env_var", env_vars: ["GREETER_KEY"], strict: true },
      },
    });
  });

  test("refuses a token secret without quoting it", () => {
    const component = new Greeter({ apiKey: Secret.fromToken("sk-do-not-leak") });
    try {
      serializeComponent(component, { path: ["components", "greeter"] });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(SerializationError);
      expect((error as SerializationError).issues[0]?.path).toEqual([
        "components",
        "greeter",
        "init_parameters",
        "apiKey",
      ]);
      expect(inspect(error, { depth: 10 })).not.toContain("sk-do-not-leak");
    }
  });

  test("reports every non-JSON param with its path", () => {
    const Loose = defineComponent({
      type: "test.ser.Loose",
      params: z.object({ when: z.date(), count: z.any(), nested: z.object({ f: z.any() }) }),
      inputs: {},
      outputs: {},
      run: () => ({}),
    });
    const component = new Loose({ when: new Date(0), count: Number.NaN, nested: { f: () => 1 } });
    try {
      serializeComponent(component);
      expect.unreachable();
    } catch (error) {
      expect((error as SerializationError).issues.map((issue) => issue.path.join("."))).toEqual([
        "init_parameters.when",
        "init_parameters.count",
        "init_parameters.nested.f",
      ]);
      expect((error as SerializationError).message).toMatch(/registered name/);
    }
  });

  test("nested components and functions go through the context", async () => {
    const wrapper = new Wrapper({ inner: new Greeter({ greeting: "Hey" }), transform: shout });
    const doc = serializeComponent(wrapper, { registry });
    expect(doc.init_parameters.transform).toBe("test.shout");
    expect((doc.init_parameters.inner as { type: string }).type).toBe("test.ser.Greeter");
    const loaded = deserializeComponent(JSON.parse(JSON.stringify(doc)), { registry });
    expect(await loaded.run({ name: "ann" })).toEqual(await wrapper.run({ name: "ann" }));
    expect(serializeComponent(loaded, { registry })).toEqual(doc);
  });

  test("an unregistered function is refused with the way to register it", () => {
    const wrapper = new Wrapper({ inner: new Greeter(), transform: (text: string) => text });
    expect(() => serializeComponent(wrapper, { registry })).toThrowError(/registerFunction\(/);
  });
});

describe("deserializeComponent", () => {
  test("round-trips a component", async () => {
    const original = new Greeter({ greeting: "Yo", times: 2 });
    const loaded = deserializeComponent(serializeComponent(original));
    expect(loaded.params).toMatchObject({ greeting: "Yo", times: 2 });
    expect(await loaded.run({ name: "x" })).toEqual(await original.run({ name: "x" }));
  });

  test("reports every bad param with its full path", () => {
    try {
      deserializeComponent(
        { type: "test.ser.Greeter", init_parameters: { greeting: 3, times: 0, apiKey: "sk-literal" } },
        { path: ["components", "llm"] },
      );
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(DeserializationError);
      const paths = (error as DeserializationError).issues.map((issue) => issue.path.join("."));
      expect(paths).toEqual([
        "components.llm.init_parameters.greeting",
        "components.llm.init_parameters.times",
        "components.llm.init_parameters.apiKey",
      ]);
      expect((error as DeserializationError).message).not.toContain("sk-literal");
    }
  });

  test("resolves types only through the registry", () => {
    const empty = createRegistry({ parent: null });
    expect(() =>
      deserializeComponent({ type: "test.ser.Greeter", init_parameters: {} }, { registry: empty }),
    ).toThrowError(/unknown component type "test.ser.Greeter"/);
    for (const type of ["node:fs", "./evil.js", "constructor", "__proto__", "toString"]) {
      expect(() => deserializeComponent({ type, init_parameters: {} })).toThrowError(DeserializationError);
    }
  });

  test("nested problems carry nested paths", () => {
    try {
      deserializeComponent(
        {
          type: "test.ser.Wrapper",
          init_parameters: {
            inner: { type: "test.ser.Greeter", init_parameters: { times: "x" } },
            transform: "test.missing",
          },
        },
        { registry, path: ["components", "w"] },
      );
      expect.unreachable();
    } catch (error) {
      expect((error as DeserializationError).issues.map((issue) => issue.path.join("."))).toEqual([
        "components.w.init_parameters.inner.init_parameters.times",
        "components.w.init_parameters.transform",
      ]);
    }
  });
});
