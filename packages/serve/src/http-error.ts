import { JunctionError } from "@junction/core";

/**
 * Errors as JSON: `{ error: { type, code?, message, issues? } }` — the error class, never a stack
 * trace. The same shape answers the OpenAI-compatible routes (their clients read `error.message`).
 */

/** The JSON body of an error answer. */
export interface ErrorBody {
  readonly error: {
    /** The error class (`PipelineValidationError`, `PipelineRuntimeError`…) or a kind such as `Unauthorized`. */
    readonly type: string;
    /** The Junction error code, when there is one. */
    readonly code?: string;
    /** What went wrong, for a person. */
    readonly message: string;
    /** Every validation problem with its path (for 400 answers). */
    readonly issues?: readonly { readonly path: readonly (string | number)[]; readonly message: string }[];
    /** The component that failed, when known. */
    readonly component?: string;
  };
}

/** An error the server answers with a fixed status (bad JSON, refused hosts, unknown pipelines…). */
export class HttpError extends Error {
  /**
   * @param status - the HTTP status
   * @param type - a short kind shown as `error.type`
   * @param message - the message shown to the caller
   */
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 500 | 503,
    readonly type: string,
    message: string,
  ) {
    super(message);
    this.name = "HttpError";
  }
}

/** Statuses of Junction error codes that are not failures of the server: bad input, unknown or busy runs. */
const codeStatus: Readonly<Record<string, number>> = {
  PIPELINE_VALIDATION_ERROR: 400,
  RESUME_INVALID_DECISION: 400,
  RESUME_INCOMPLETE: 400,
  RESUME_UNKNOWN_INTERRUPT: 400,
  SNAPSHOT_SIGNATURE_INVALID: 400,
  RUN_NOT_FOUND: 404,
  RUN_ALREADY_RESUMED: 409,
  RUN_IN_PROGRESS: 409,
  RUN_NOT_RESUMABLE: 409,
  RUN_CONFLICT: 409,
  RUN_INTERRUPTED: 409,
  RESUME_ARGS_CHANGED: 409,
  RESUME_DEFINITION_CHANGED: 409,
};

/** A conversation turn refused because another was stored first: 409 even when a pipeline wraps it. */
function conversationConflict(error: JunctionError): boolean {
  return (
    error.code === "CONVERSATION_CONFLICT" ||
    (error.cause as { code?: unknown } | undefined)?.code === "CONVERSATION_CONFLICT"
  );
}

/**
 * The status and body for any error: 400 for invalid input, the error's own status, 504 for a run
 * stopped by the server's run timeout, else 500.
 */
export function errorAnswer(error: unknown): { status: number; body: ErrorBody } {
  if (error instanceof HttpError) {
    return { status: error.status, body: { error: { type: error.type, message: error.message } } };
  }
  if (JunctionError.isInstance(error)) {
    const status = codeStatus[error.code] ?? (conversationConflict(error) ? 409 : 500);
    return {
      status,
      body: {
        error: {
          type: error.constructor.name,
          code: error.code,
          message: error.message,
          ...(error.issues.length > 0 ? { issues: error.issues } : {}),
          ...(error.componentName !== undefined ? { component: error.componentName } : {}),
        },
      },
    };
  }
  if (error instanceof Error && error.name === "TimeoutError") {
    return { status: 504, body: { error: { type: "TimeoutError", message: error.message } } };
  }
  if (error instanceof Error) {
    const type = error.name === "AbortError" ? "AbortError" : error.constructor.name;
    return { status: 500, body: { error: { type, message: error.message } } };
  }
  return { status: 500, body: { error: { type: "Error", message: String(error) } } };
}
