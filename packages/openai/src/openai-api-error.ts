import { JunctionError, type JunctionErrorFields } from "@junction/core";

/** Structured fields of an {@link OpenAIApiError}. */
export interface OpenAIApiErrorFields extends JunctionErrorFields {
  /** The HTTP status the server answered with; `undefined` when no response arrived (connection failure, timeout). */
  readonly status?: number | undefined;
  /** The error `type` from the server's error body (e.g. `"invalid_request_error"`), when given. */
  readonly errorType?: string | undefined;
  /** The `x-request-id` header, to quote when contacting the provider. */
  readonly requestId?: string | undefined;
}

/**
 * A call to the OpenAI API (or an OpenAI-compatible server) failed: an HTTP error status, a connection
 * failure or a timeout, after the retries `maxRetries` allows.
 *
 * The message is redacted: it never contains the API key, even when the server quoted it back.
 * `cause` holds the `openai` SDK's error with its own message redacted the same way.
 *
 * @example
 * ```ts
 * try { await generator.run({ messages }); } catch (error) {
 *   if (error instanceof OpenAIApiError && error.status === 429) console.log("rate limited");
 * }
 * ```
 */
export class OpenAIApiError extends JunctionError {
  /** The HTTP status, or `undefined` when no response arrived. */
  readonly status: number | undefined;
  /** The error `type` from the server's error body, when given. */
  readonly errorType: string | undefined;
  /** The request id (`x-request-id` header), when the server sent one. */
  readonly requestId: string | undefined;

  /** @param message - what failed and how to fix it (already redacted) @param fields - status and more */
  constructor(message: string, fields: OpenAIApiErrorFields = {}) {
    super("OPENAI_API_ERROR", message, fields);
    this.status = fields.status;
    this.errorType = fields.errorType;
    this.requestId = fields.requestId;
  }

  /** True for an `OpenAIApiError`, even one created by another copy of this package. */
  static override isInstance(value: unknown): value is OpenAIApiError {
    return JunctionError.isInstance(value) && value.code === "OPENAI_API_ERROR";
  }
}
