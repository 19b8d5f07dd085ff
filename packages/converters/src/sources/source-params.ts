import { TextDecoder } from "node:util";
import { z } from "zod";

/** The default of `maxFileBytes`: 50 MB. */
export const defaultMaxFileBytes = 50 * 1024 * 1024;

/** Python codec spellings WHATWG does not list, and the WHATWG label that decodes the same way. */
const pythonAliases: Readonly<Record<string, string>> = {
  "utf-8-sig": "utf-8", // both drop a leading byte-order mark
  "latin-1": "latin1",
  "iso8859-1": "iso-8859-1",
  "utf-16-le": "utf-16le",
  "utf-16-be": "utf-16be",
  utf16: "utf-16",
};

function decodes(label: string): boolean {
  try {
    new TextDecoder(label);
    return true;
  } catch {
    return false;
  }
}

/**
 * The `TextDecoder` label for `label`, which may be a WHATWG label (`"utf-8"`, `"latin1"`,
 * `"windows-1252"`) or a Python codec name as Haystack pipelines write them (`"utf_8"`, `"latin-1"`,
 * `"utf-8-sig"`); `undefined` when neither.
 */
export function decoderLabel(label: string): string | undefined {
  if (decodes(label)) return label;
  const normalized = label.trim().toLowerCase().replaceAll("_", "-");
  const candidate = pythonAliases[normalized] ?? normalized;
  return decodes(candidate) ? candidate : undefined;
}

/** True when `label` names an encoding the converters can decode (see {@link decoderLabel}). */
export function isKnownEncoding(label: string): boolean {
  return decoderLabel(label) !== undefined;
}

/**
 * The `encoding` option: a WHATWG encoding label (or a Python codec name such as `"latin-1"` or
 * `"utf-8-sig"`), checked when the component is built.
 */
export const encodingSchema = z.string().default("utf-8").refine(isKnownEncoding, {
  message: 'unknown encoding; use a WHATWG label such as "utf-8", "latin1", "windows-1252" or "utf-16le".',
});

/**
 * The options every converter shares (Haystack's `store_full_path` and `encoding`, plus Junction's
 * failure and size controls).
 */
export const sourceParamsShape = {
  /** Keep the whole path in `meta.file_path` instead of the file name only (Haystack's default). */
  storeFullPath: z.boolean().default(false),
  /** Throw on the first source that fails instead of logging a warning and going on. */
  raiseOnFailure: z.boolean().default(false),
  /** The largest file or `ByteStream` accepted, in bytes (default 50 MB). */
  maxFileBytes: z.number().int().positive().default(defaultMaxFileBytes),
  /**
   * When set, file paths are resolved against this directory and must stay inside it (after following
   * symbolic links). Set it when the paths come from users (a served pipeline).
   */
  baseDirectory: z.string().min(1).optional(),
};

/** The shared options after parsing. */
export interface SourceParams {
  readonly storeFullPath: boolean;
  readonly raiseOnFailure: boolean;
  readonly maxFileBytes: number;
  readonly baseDirectory?: string | undefined;
}
