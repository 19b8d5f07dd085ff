import type { RunContext } from "@junction/core";
import { excerpt } from "@junction/core";
import type { ByteStream, Document } from "@junction/documents";
import { ConversionError } from "../errors.js";
import { describeSource, readSource } from "./read-source.js";
import type { Source, SourcesMeta } from "./socket-schemas.js";
import { normalizeMeta } from "./source-meta.js";
import type { SourceParams } from "./source-params.js";

/** What a converter's per-source function receives. */
export interface SourceItem {
  /** The bytes, with the stream's meta (`file_path` for files). */
  readonly stream: ByteStream;
  /** The `meta` input for this source (already one object per source). */
  readonly meta: Record<string, unknown>;
  /** How messages name the source. */
  readonly described: string;
  /** The component as messages name it. */
  readonly label: string;
  /** Logs a warning about this source (for partial problems: an empty PDF, a skipped JSON object). */
  readonly warn: (message: string) => void;
}

/** What {@link convertSources} needs. */
export interface ConvertSourcesOptions {
  /** The `sources` input. */
  readonly sources: readonly Source[];
  /** The `meta` input. */
  readonly meta: SourcesMeta;
  /** The shared options. */
  readonly params: SourceParams;
  /** The run context (logger, signal, component name). */
  readonly context: Pick<RunContext, "logger" | "signal" | "componentName">;
  /** The component's type, e.g. `"junction.PDFToDocument"`. */
  readonly type: string;
  /** Turns one source into documents; throws a `ConversionError` to fail the source. */
  readonly convert: (item: SourceItem) => Promise<Document[]> | Document[];
}

/** How messages name a component: `"pdf" (junction.PDFToDocument)` in a pipeline, its type otherwise. */
export function componentLabel(type: string, componentName: string | undefined): string {
  return componentName === undefined ? type : `"${excerpt(componentName)}" (${type})`;
}

/**
 * The loop every converter runs: one source at a time, in order. A source that fails (missing,
 * unreadable, too large, corrupt, wrongly encoded) is a warning naming it and the reason, and the batch
 * goes on; with `raiseOnFailure` it is thrown. Wrong inputs (`invalid_input`) and aborts always throw.
 */
export async function convertSources(options: ConvertSourcesOptions): Promise<Document[]> {
  const { sources, params, context } = options;
  const label = componentLabel(options.type, context.componentName);
  const metaList = normalizeMeta(options.meta, sources.length, label);
  const documents: Document[] = [];
  for (let index = 0; index < sources.length; index++) {
    context.signal?.throwIfAborted();
    const source = sources[index] as Source;
    const described = describeSource(source, index);
    try {
      const stream = await readSource(source, index, { label, params, signal: context.signal });
      const warn = (message: string) => context.logger.warn(message, { component: label, source: described });
      const converted = await options.convert({
        stream,
        meta: metaList[index] as Record<string, unknown>,
        described,
        label,
        warn,
      });
      for (const document of converted) documents.push(document);
    } catch (error) {
      if (context.signal?.aborted) throw error;
      const failure = asConversionError(error, label, described);
      if (failure.reason === "invalid_input" || params.raiseOnFailure) throw failure;
      context.logger.warn(`${failure.message} Skipped it (set raiseOnFailure: true to make this an error).`, {
        component: label,
        source: described,
        reason: failure.reason,
      });
    }
  }
  return documents;
}

function asConversionError(error: unknown, label: string, described: string): ConversionError {
  if (error instanceof ConversionError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new ConversionError(`${label}: could not convert ${described} (${excerpt(message)}).`, {
    reason: "corrupt",
    source: described,
    cause: error,
  });
}
