import { ComponentError, getDefaultLogger, JunctionError, type Secret } from "@junction/core";
import OpenAI from "openai";
import { refusalAwareFetch } from "./connection-refused.js";

/** The default OpenAI endpoint. */
export const OPENAI_DEFAULT_BASE_URL = "https://api.openai.com/v1";

/** What the client is built from (the component's params). */
export interface ClientSettings {
  readonly apiKey: Secret;
  readonly baseURL?: string | undefined;
  readonly organization?: string | undefined;
  readonly timeout?: number | undefined;
  readonly maxRetries?: number | undefined;
  /** The component named in errors (default `"OpenAIChatGenerator"`). */
  readonly componentLabel?: string | undefined;
}

/** A client and the resolved settings it was built with. */
export interface ResolvedClient {
  readonly client: OpenAI;
  /** The key in use (`undefined` for a key-less OpenAI-compatible server); redacted from errors. */
  readonly apiKey: string | undefined;
  readonly baseURL: string;
  readonly maxRetries: number;
}

type Env = Readonly<Record<string, string | undefined>>;

function processEnv(): Env {
  const holder = globalThis as { process?: { env?: Env } };
  return holder.process?.env ?? {};
}

function fromEnvNumber(
  label: string,
  env: Env,
  name: string,
  parse: (text: string) => number,
  valid: (value: number) => boolean,
) {
  const text = env[name];
  if (text === undefined || text === "") return undefined;
  const value = parse(text);
  if (!valid(value)) {
    throw new ComponentError(
      `${label}: the environment variable ${name} is ${JSON.stringify(text)}, which is not valid. Unset it or give a non-negative number.`,
      { componentType: `junction.${label}` },
    );
  }
  return value;
}

/** Forwards the SDK's own log messages to Junction's default logger (never to `console` directly). */
const sdkLogger = {
  error: (message: string, ...rest: unknown[]) =>
    getDefaultLogger().error(`openai: ${message}`, { details: rest }),
  warn: (message: string, ...rest: unknown[]) =>
    getDefaultLogger().warn(`openai: ${message}`, { details: rest }),
  info: (message: string, ...rest: unknown[]) =>
    getDefaultLogger().info(`openai: ${message}`, { details: rest }),
  debug: (message: string, ...rest: unknown[]) =>
    getDefaultLogger().debug(`openai: ${message}`, { details: rest }),
};

function resolveKey(label: string, apiKey: Secret, env: Env, customServer: boolean): string | undefined {
  let key: string | undefined;
  try {
    key = apiKey.resolve(env);
  } catch (error) {
    if (!(JunctionError.isInstance(error) && error.code === "SECRET_NOT_SET")) throw error;
  }
  if (key !== undefined || customServer) return key;
  const names = apiKey.envVars.map((name) => `"${name}"`).join(", ");
  throw new JunctionError(
    "SECRET_NOT_SET",
    `${label}: no API key. Set the environment variable ${names || '"OPENAI_API_KEY"'}, pass \`apiKey\` (Secret.fromEnvVar(...)), or set \`baseURL\` / OPENAI_BASE_URL for an OpenAI-compatible server that needs no key.`,
    { componentType: `junction.${label}` },
  );
}

/**
 * Builds the `openai` client at warm-up: resolves the key and the base URL (`baseURL`, else
 * `OPENAI_BASE_URL`, else OpenAI), the timeout (`timeout` ms, else `OPENAI_TIMEOUT` seconds, else 30 s) and
 * the retry budget (`maxRetries`, else `OPENAI_MAX_RETRIES`, else 5).
 *
 * With a custom base URL and no key set, the client sends no `Authorization` header (local servers such
 * as Ollama, vLLM or llama.cpp need none). Against OpenAI itself a missing key is an error.
 *
 * @param settings - the component's params
 * @param env - the environment to read (default: `process.env`)
 */
export function createClient(settings: ClientSettings, env: Env = processEnv()): ResolvedClient {
  const envBaseURL = env.OPENAI_BASE_URL === "" ? undefined : env.OPENAI_BASE_URL;
  const custom = settings.baseURL ?? envBaseURL;
  const baseURL = custom ?? OPENAI_DEFAULT_BASE_URL;
  const label = settings.componentLabel ?? "OpenAIChatGenerator";
  const apiKey = resolveKey(label, settings.apiKey, env, custom !== undefined);
  const timeout =
    settings.timeout ??
    (fromEnvNumber(label, env, "OPENAI_TIMEOUT", Number.parseFloat, (v) => Number.isFinite(v) && v > 0) ??
      30) * 1000;
  const maxRetries =
    settings.maxRetries ??
    fromEnvNumber(label, env, "OPENAI_MAX_RETRIES", Number, (v) => Number.isInteger(v) && v >= 0) ??
    5;
  const client = new OpenAI({
    apiKey: apiKey ?? "no-key",
    adminAPIKey: null,
    baseURL,
    ...(settings.organization === undefined ? {} : { organization: settings.organization }),
    timeout,
    maxRetries,
    fetch: refusalAwareFetch,
    logger: sdkLogger,
    logLevel: "warn",
    ...(apiKey === undefined ? { defaultHeaders: { Authorization: null } } : {}),
  });
  return { client, apiKey, baseURL, maxRetries };
}
