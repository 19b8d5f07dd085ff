import OpenAI from "openai";
import { ConnectionRefused } from "./connection-refused.js";
import { OpenAIApiError } from "./openai-api-error.js";

/** What the mapping needs to know about the call that failed. */
export interface ErrorContext {
  /** The resolved API key (redacted from every message), if any. */
  readonly apiKey: string | undefined;
  /** The server's base URL, quoted (without credentials) in messages. */
  readonly baseURL: string;
  /** The model that was called. */
  readonly model: string;
  /** How many retries the client was allowed. */
  readonly maxRetries: number;
  /** The component named in messages (default `"OpenAIChatGenerator"`). */
  readonly componentLabel?: string | undefined;
  /** The hint for other 4xx statuses (default: check the messages, tools and `generationKwargs`). */
  readonly requestHint?: string | undefined;
}

const keyPattern = /\b(sk-[A-Za-z0-9_*-]{2,}|Bearer\s+\S+)/g;

/**
 * Removes an API key from a text: the exact key, anything shaped like an OpenAI key (`sk-...`) and
 * bearer tokens. Servers sometimes quote (part of) the key back in error messages.
 *
 * @param text - the text to clean
 * @param apiKey - the key in use, if any
 */
export function redact(text: string, apiKey: string | undefined): string {
  let out = text;
  if (apiKey !== undefined && apiKey.length >= 4) out = out.split(apiKey).join("***");
  return out.replace(keyPattern, (match) => (match.startsWith("Bearer") ? "Bearer ***" : "sk-***"));
}

/** The base URL without user info, query or fragment. */
export function displayURL(baseURL: string): string {
  try {
    const url = new URL(baseURL);
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return "(invalid base URL)";
  }
}

function redactBody(body: unknown, apiKey: string | undefined): void {
  if (typeof body !== "object" || body === null) return;
  const record = body as Record<string, unknown>;
  if (typeof record.message === "string") record.message = redact(record.message, apiKey);
}

function hint(status: number | undefined, context: ErrorContext): string {
  const retried =
    context.maxRetries > 0
      ? ` after ${context.maxRetries} retr${context.maxRetries === 1 ? "y" : "ies"}`
      : "";
  if (status === undefined) {
    return `No response arrived${retried}. Check that the server at "${displayURL(context.baseURL)}" is running and reachable, or raise \`timeout\`.`;
  }
  if (status === 401 || status === 403) {
    return "Check the API key (`apiKey`, by default the OPENAI_API_KEY environment variable) and its permissions.";
  }
  if (status === 404) {
    return `Check the model name "${context.model}" and \`baseURL\` ("${displayURL(context.baseURL)}").`;
  }
  if (status === 429) {
    return `The server is rate limiting${retried}. Slow down, or raise \`maxRetries\`.`;
  }
  if (status >= 500) return `The server failed${retried}. Try again later, or raise \`maxRetries\`.`;
  return context.requestHint ?? "Check the messages, tools and `generationKwargs` sent.";
}

/**
 * Converts an error thrown by the `openai` SDK into an {@link OpenAIApiError} with a redacted message.
 * Errors that are not the SDK's are returned unchanged.
 *
 * @param error - what the SDK threw
 * @param context - the key to redact, the base URL, the model, the retry budget
 */
export function toOpenAIApiError(error: unknown, context: ErrorContext): unknown {
  if (error instanceof ConnectionRefused) {
    return new OpenAIApiError(
      `${context.componentLabel ?? "OpenAIChatGenerator"}: the call to model "${context.model}" failed: the server at "${displayURL(context.baseURL)}" is not reachable (connection refused: nothing accepts connections there). Start the server, or fix \`baseURL\` (or OPENAI_BASE_URL). Not retried: a refused connection is refused again at once, and raising \`timeout\` would not help.`,
      { cause: error.refusal },
    );
  }
  if (!(error instanceof OpenAI.OpenAIError)) return error;
  error.message = redact(error.message, context.apiKey);
  if (error instanceof OpenAI.APIError) redactBody(error.error, context.apiKey);
  const where = `${context.componentLabel ?? "OpenAIChatGenerator"}: the call to model "${context.model}" failed`;
  if (error instanceof OpenAI.APIError && error.status !== undefined) {
    const errorType = typeof error.type === "string" ? error.type : undefined;
    const requestId = error.requestID ?? undefined;
    return new OpenAIApiError(
      `${where} with HTTP ${error.status}${errorType === undefined ? "" : ` (${errorType})`}: ${error.message}. ${hint(error.status, context)}`,
      { status: error.status, errorType, requestId, cause: error },
    );
  }
  if (error instanceof OpenAI.APIConnectionError) {
    const kind = error instanceof OpenAI.APIConnectionTimeoutError ? "timed out" : "could not connect";
    return new OpenAIApiError(`${where}: ${kind} (${error.message}). ${hint(undefined, context)}`, {
      cause: error,
    });
  }
  return new OpenAIApiError(`${where}: ${error.message}`, { cause: error });
}
