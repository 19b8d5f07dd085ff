import { errorAnswer } from "./http-error.js";

/**
 * Errors on the OpenAI-compatible routes (`/v1/*`) in the OpenAI API's shape, so OpenAI clients branch
 * on them as they do against OpenAI: `{ error: { message, type, code, param } }`.
 */

/** The JSON body of an error on `/v1/*`. */
export interface OpenAIErrorBody {
  readonly error: {
    /** What went wrong, for a person. */
    readonly message: string;
    /** `invalid_request_error` for a refusal (4xx, a bad API key included), `server_error` for a failure (5xx). */
    readonly type: string;
    /** A snake_case code: `model_not_found`, `invalid_api_key`, `unsupported_value`, `pipeline_validation_error`… */
    readonly code: string | null;
    /** The request field at fault (`model`, `n`, `messages[0].content`), or null. */
    readonly param: string | null;
    /** Every validation problem with its path (Junction's addition, for 400 answers). */
    readonly issues?: readonly { readonly path: readonly (string | number)[]; readonly message: string }[];
  };
}

/** As OpenAI answers: every refusal (including a bad API key) is an `invalid_request_error`. */
function typeOf(status: number): string {
  return status >= 500 ? "server_error" : "invalid_request_error";
}

/** `PayloadTooLarge` → `payload_too_large`; `RUN_NOT_FOUND` → `run_not_found`. */
function snakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/[^A-Za-z0-9]+/g, "_")
    .toLowerCase();
}

/** `["messages", 0, "content"]` → `messages[0].content`. */
function paramOf(path: readonly (string | number)[]): string | null {
  let param = "";
  for (const part of path) param += typeof part === "number" ? `[${part}]` : param === "" ? part : `.${part}`;
  return param === "" ? null : param;
}

/** A refusal with a known field and code (`n > 1`, an unknown model). */
export class OpenAIRequestError extends Error {
  /**
   * @param status - the HTTP status
   * @param code - the OpenAI-style code
   * @param param - the request field at fault
   * @param message - the message shown to the caller
   */
  constructor(
    readonly status: 400 | 404,
    readonly code: string,
    readonly param: string | null,
    message: string,
  ) {
    super(message);
    this.name = "OpenAIRequestError";
  }
}

/** The status and OpenAI-shaped body for any error raised while answering `/v1/*`. */
export function openAIErrorAnswer(error: unknown): { status: number; body: OpenAIErrorBody } {
  if (error instanceof OpenAIRequestError) {
    return {
      status: error.status,
      body: {
        error: { message: error.message, type: typeOf(error.status), code: error.code, param: error.param },
      },
    };
  }
  const { status, body } = errorAnswer(error);
  const issues = body.error.issues;
  const code = status === 401 ? "invalid_api_key" : snakeCase(body.error.code ?? body.error.type);
  return {
    status,
    body: {
      error: {
        message: body.error.message,
        type: typeOf(status),
        code,
        param: issues?.[0] === undefined ? null : paramOf(issues[0].path),
        ...(issues === undefined ? {} : { issues }),
      },
    },
  };
}
