import { basename } from "node:path";
import { ConversionError } from "../errors.js";
import type { SourcesMeta } from "./socket-schemas.js";

/**
 * Haystack's `normalize_metadata`: `undefined` gives an empty object per source, one object a copy per
 * source, a list must have one object per source.
 *
 * @throws ConversionError (`invalid_input`) when a list's length differs from the number of sources
 */
export function normalizeMeta(
  meta: SourcesMeta,
  sourceCount: number,
  label: string,
): Record<string, unknown>[] {
  if (meta === undefined) return Array.from({ length: sourceCount }, () => ({}));
  if (!Array.isArray(meta)) return Array.from({ length: sourceCount }, () => copyMeta(meta));
  if (meta.length !== sourceCount) {
    throw new ConversionError(
      `${label}: \`meta\` is a list of ${meta.length} objects for ${sourceCount} sources; give one object per source, or a single object for all of them.`,
      { reason: "invalid_input", socket: "meta" },
    );
  }
  return meta;
}

/**
 * Merges meta layers left to right (later wins), then shortens `file_path` to the file name unless
 * `storeFullPath` (Haystack writes `os.path.basename(file_path)` by default).
 */
export function mergeMeta(
  layers: readonly Readonly<Record<string, unknown>>[],
  streamMeta: Readonly<Record<string, unknown>>,
  storeFullPath: boolean,
): Record<string, unknown> {
  const merged: Record<string, unknown> = Object.assign({}, ...layers);
  const filePath = streamMeta.file_path;
  if (!storeFullPath && typeof filePath === "string" && filePath !== "") {
    merged.file_path = basename(filePath);
  }
  return merged;
}

/** A deep copy per source (as Haystack's `deepcopy`), or a shallow one when a value cannot be cloned (a function). */
function copyMeta(meta: Record<string, unknown>): Record<string, unknown> {
  try {
    return structuredClone(meta);
  } catch {
    return { ...meta };
  }
}
