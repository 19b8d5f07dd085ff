import { z } from "zod";
import { DeserializationError, type Issue, JunctionError, SerializationError } from "./errors/errors.js";

/** The JSON form of an environment-variable secret: the only form a secret takes in a document. */
export interface SecretJSON {
  /** Always `"env_var"`: literal tokens are never written to documents. */
  readonly type: "env_var";
  /** The variables to read, in order; the first one set wins. */
  readonly env_vars: readonly string[];
  /** Whether resolving fails when none of the variables is set. */
  readonly strict: boolean;
}

/** Options of {@link Secret.fromEnvVar}. */
export interface EnvVarSecretOptions {
  /** Throw when none of the variables is set (default `true`); otherwise resolve to `undefined`. */
  readonly strict?: boolean | undefined;
}

const inspectCustom = Symbol.for("nodejs.util.inspect.custom");
const secretBrand = Symbol.for("junction.secret");

/** Reads the process environment where there is one (Node, Bun, Deno with compat), `{}` elsewhere. */
function processEnv(): Readonly<Record<string, string | undefined>> {
  const holder = globalThis as { process?: { env?: Record<string, string | undefined> } };
  return holder.process?.env ?? {};
}

/**
 * A credential (API key, token) a component needs, held so that it cannot leak.
 *
 * Two kinds exist, as in the reference:
 * - **environment-variable secrets** (`Secret.fromEnvVar("OPENAI_API_KEY")`) name the variables to read
 *   and are resolved late (components call {@link Secret.resolve} in `warmUp` or `run`). Only this kind
 *   can be serialized: `{ "type": "env_var", "env_vars": [...], "strict": true }`.
 * - **token secrets** (`Secret.fromToken(key)`) hold the value itself. They refuse to serialize
 *   (a `SerializationError`), so a literal key can never end up in a pipeline document, and the value
 *   never appears in `toString`, `util.inspect`, JSON or error messages.
 *
 * @example
 * ```ts
 * const apiKey = Secret.fromEnvVar(["OPENAI_API_KEY", "AZURE_OPENAI_API_KEY"]);
 * apiKey.toJSON(); // { type: "env_var", env_vars: ["OPENAI_API_KEY", "AZURE_OPENAI_API_KEY"], strict: true }
 * const key = apiKey.resolve(); // the first variable that is set; throws if none is
 * ```
 */
export class Secret {
  readonly #type: "env_var" | "token";
  readonly #envVars: readonly string[];
  readonly #strict: boolean;
  readonly #token: string | undefined;
  readonly [secretBrand] = true;

  private constructor(
    type: "env_var" | "token",
    envVars: readonly string[],
    strict: boolean,
    token: string | undefined,
  ) {
    this.#type = type;
    this.#envVars = Object.freeze([...envVars]);
    this.#strict = strict;
    this.#token = token;
    Object.freeze(this);
  }

  /**
   * A secret read from environment variables when resolved: the first variable that is set wins.
   *
   * @param names - one variable name or several, in order of preference
   * @param options - `strict` (default `true`): resolving throws when none is set
   */
  static fromEnvVar(names: string | readonly string[], options: EnvVarSecretOptions = {}): Secret {
    const list = typeof names === "string" ? [names] : names;
    if (!Array.isArray(list) || list.length === 0) {
      throw new JunctionError(
        "SECRET_ERROR",
        'Secret.fromEnvVar: give at least one environment variable name, e.g. Secret.fromEnvVar("OPENAI_API_KEY").',
      );
    }
    for (const name of list) {
      if (typeof name !== "string" || name.trim() === "") {
        throw new JunctionError(
          "SECRET_ERROR",
          "Secret.fromEnvVar: every environment variable name must be a non-empty string.",
        );
      }
    }
    return new Secret("env_var", list, options.strict ?? true, undefined);
  }

  /**
   * A secret holding its value. It works like any secret but can never be serialized: pipelines that
   * hold one cannot be written to JSON or YAML. Use {@link Secret.fromEnvVar} for pipelines you save.
   *
   * @param token - the credential itself (non-empty)
   */
  static fromToken(token: string): Secret {
    if (typeof token !== "string" || token === "") {
      throw new JunctionError("SECRET_ERROR", "Secret.fromToken: the token must be a non-empty string.");
    }
    return new Secret("token", [], true, token);
  }

  /**
   * Reads a secret's JSON form (`{ "type": "env_var", "env_vars": [...], "strict"?: boolean }`; `strict`
   * defaults to `true`). Token secrets are refused: documents never carry credentials.
   *
   * @param doc - the JSON value
   * @throws DeserializationError listing every problem (never quoting the values given)
   */
  static fromJSON(doc: unknown): Secret {
    const issues = secretJSONIssues(doc);
    if (issues.length > 0) {
      throw new DeserializationError(`Secret.fromJSON: ${issues.map((issue) => issue.message).join(" ")}`, {
        issues,
      });
    }
    const data = doc as { env_vars: string[]; strict?: boolean };
    return Secret.fromEnvVar(data.env_vars, { strict: data.strict ?? true });
  }

  /** True for a `Secret`, even one created by another copy of this package. */
  static isInstance(value: unknown): value is Secret {
    return (
      typeof value === "object" &&
      value !== null &&
      (value as { [secretBrand]?: unknown })[secretBrand] === true
    );
  }

  /** `"env_var"` or `"token"`. */
  get type(): "env_var" | "token" {
    return this.#type;
  }

  /** The environment variable names (empty for a token secret). */
  get envVars(): readonly string[] {
    return this.#envVars;
  }

  /** Whether resolving an environment-variable secret throws when no variable is set. */
  get strict(): boolean {
    return this.#strict;
  }

  /**
   * The secret's value: the token, or the first environment variable that is set (non-empty).
   *
   * @param env - the environment to read (default: `process.env`)
   * @returns the value, or `undefined` for a non-strict secret whose variables are all unset
   * @throws JunctionError (code `"SECRET_NOT_SET"`) for a strict secret whose variables are all unset
   */
  resolve(env: Readonly<Record<string, string | undefined>> = processEnv()): string | undefined {
    if (this.#type === "token") return this.#token;
    for (const name of this.#envVars) {
      const value = env[name];
      if (typeof value === "string" && value !== "") return value;
    }
    if (!this.#strict) return undefined;
    const names = this.#envVars.map((name) => `"${name}"`).join(", ");
    throw new JunctionError(
      "SECRET_NOT_SET",
      `Secret.resolve: none of the environment variables ${names} is set. Set one of them, or pass the credential with Secret.fromToken(...).`,
    );
  }

  /**
   * The JSON form of an environment-variable secret.
   *
   * @throws SerializationError for a token secret: credentials are never written out
   */
  toJSON(): SecretJSON {
    if (this.#type === "token") {
      throw new SerializationError(
        'Secret.toJSON: a token secret (Secret.fromToken) cannot be serialized, so that credentials never end up in documents or logs. Use Secret.fromEnvVar("MY_API_KEY") for components you save.',
      );
    }
    return { type: "env_var", env_vars: [...this.#envVars], strict: this.#strict };
  }

  /** A redacted description: `Secret(env_var: OPENAI_API_KEY)` or `Secret(token: ***)`. */
  toString(): string {
    return this.#type === "token" ? "Secret(token: ***)" : `Secret(env_var: ${this.#envVars.join(", ")})`;
  }

  /** What `util.inspect` and `console.log` show: the redacted description. */
  [inspectCustom](): string {
    return this.toString();
  }
}

/** Problems with a secret's JSON form; messages never quote the values given. */
export function secretJSONIssues(doc: unknown, path: readonly (string | number)[] = []): Issue[] {
  const fix =
    'Write secrets as environment-variable references: { "type": "env_var", "env_vars": ["MY_API_KEY"], "strict": true }.';
  if (typeof doc === "string") {
    return [{ path, message: `a literal string is not accepted as a secret. ${fix}` }];
  }
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) {
    return [{ path, message: `a secret must be an object. ${fix}` }];
  }
  const record = doc as Record<string, unknown>;
  const type = Object.hasOwn(record, "type") ? record.type : undefined;
  if (type === "token") {
    return [
      {
        path: [...path, "type"],
        message: `token secrets cannot be loaded from a document: credentials never belong in documents. ${fix}`,
      },
    ];
  }
  const issues: Issue[] = [];
  if (type !== "env_var")
    issues.push({ path: [...path, "type"], message: `the type must be "env_var". ${fix}` });
  for (const key of Object.keys(record)) {
    if (key !== "type" && key !== "env_vars" && key !== "strict") {
      issues.push({
        path: [...path, key],
        message: "unknown key in a secret; only type, env_vars and strict are allowed.",
      });
    }
  }
  const envVars = Object.hasOwn(record, "env_vars") ? record.env_vars : undefined;
  if (
    !Array.isArray(envVars) ||
    envVars.length === 0 ||
    !envVars.every((name) => typeof name === "string" && name.trim() !== "")
  ) {
    issues.push({
      path: [...path, "env_vars"],
      message: "env_vars must be a non-empty array of variable names.",
    });
  }
  const strict = Object.hasOwn(record, "strict") ? record.strict : undefined;
  if (strict !== undefined && typeof strict !== "boolean") {
    issues.push({ path: [...path, "strict"], message: "strict must be true or false." });
  }
  return issues;
}

/**
 * The zod schema for a secret in component params: accepts a {@link Secret} or its env-var JSON form
 * (as found in documents) and produces a `Secret`. Literal strings and token forms are rejected with a
 * message that never quotes them.
 *
 * @example
 * ```ts
 * const params = z.object({
 *   apiKey: secretSchema.default(() => Secret.fromEnvVar("OPENAI_API_KEY")),
 * });
 * ```
 */
export const secretSchema = z.custom<Secret | SecretJSON>().transform((value, context): Secret => {
  if (Secret.isInstance(value)) return value;
  const issues = secretJSONIssues(value);
  if (issues.length > 0) {
    for (const issue of issues) {
      context.addIssue({ code: "custom", message: issue.message, path: [...issue.path] });
    }
    return z.NEVER;
  }
  return Secret.fromJSON(value);
});
