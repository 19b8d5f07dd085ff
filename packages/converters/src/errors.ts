import { JunctionError, type JunctionErrorFields } from "@junction/core";

/**
 * Errors of `@junction/converters`. Each extends core's {@link JunctionError} with its own `code`, so
 * `JunctionError.isInstance(error) && error.code === "FETCH_ERROR"` works across copies of the package.
 */

/** Why a source could not be converted. */
export type ConversionFailureReason =
  | "not_found"
  | "unreadable"
  | "outside_base_directory"
  | "too_large"
  | "decode"
  | "corrupt"
  | "empty"
  | "invalid_input";

/** Structured fields of a {@link ConversionError}. */
export interface ConversionErrorFields extends JunctionErrorFields {
  /** The source that failed: its path, or a description of the `ByteStream` (`ByteStream #2 (url: …)`). */
  readonly source?: string | undefined;
  /** Why it failed. */
  readonly reason: ConversionFailureReason;
}

/**
 * A converter could not turn a source into documents (missing or unreadable file, corrupt PDF, wrong
 * encoding, a size limit), or its inputs were wrong (a `meta` list of the wrong length, a URL given as a
 * source). Per-source failures are warnings unless the converter has `raiseOnFailure: true`; wrong inputs
 * always throw.
 */
export class ConversionError extends JunctionError {
  /** The source that failed, when the error concerns one. */
  readonly source: string | undefined;
  /** Why it failed. */
  readonly reason: ConversionFailureReason;

  /** @param message - names the component, the source, why, and how to fix it @param fields - structured fields */
  constructor(message: string, fields: ConversionErrorFields) {
    super("CONVERSION_ERROR", message, fields);
    this.source = fields.source;
    this.reason = fields.reason;
  }
}

/** Why a URL could not be fetched. */
export type FetchFailureReason =
  | "invalid_url"
  | "scheme"
  | "blocked_address"
  | "dns"
  | "network"
  | "timeout"
  | "too_large"
  | "http_status"
  | "redirects"
  | "aborted";

/** Structured fields of a {@link FetchError}. */
export interface FetchErrorFields extends JunctionErrorFields {
  /** The URL that failed (the one requested, or the redirect target that was refused). */
  readonly url: string;
  /** Why it failed. */
  readonly reason: FetchFailureReason;
  /** The HTTP status, for `reason: "http_status"`. */
  readonly status?: number | undefined;
}

/**
 * `LinkContentFetcher` could not fetch a URL: a refused scheme or address (SSRF protection), a DNS or
 * network failure, the timeout, `maxBytes`, too many redirects, or an HTTP error status.
 */
export class FetchError extends JunctionError {
  /** The URL that failed. */
  readonly url: string;
  /** Why it failed. */
  readonly reason: FetchFailureReason;
  /** The HTTP status, for `reason: "http_status"`. */
  readonly status: number | undefined;

  /** @param message - names the URL, the reason and the limit or fix @param fields - structured fields */
  constructor(message: string, fields: FetchErrorFields) {
    super("FETCH_ERROR", message, fields);
    this.url = fields.url;
    this.reason = fields.reason;
    this.status = fields.status;
  }
}
