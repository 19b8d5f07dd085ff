import { TextDecoder } from "node:util";
import { z } from "zod";

/** The default of `maxFileBytes`: 50 MB. */
export const defaultMaxFileBytes = 50 * 1024 * 1024;

/** True when `label` is an encoding `TextDecoder` knows (`"utf-8"`, `"latin1"`, `"utf-16le"`, ...). */
export function isKnownEncoding(label: string): boolean {
  try {
    new TextDecoder(label);
    return true;
  } catch {
    return false;
  }
}

/** The `encoding` option: a WHATWG encoding label, checked when the component is built. */
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
