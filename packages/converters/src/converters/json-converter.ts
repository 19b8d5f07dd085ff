import { defineComponent, excerpt } from "@junction/core";
import { Document } from "@junction/documents";
import { z } from "zod";
import { ConversionError } from "../errors.js";
import { convertSources, type SourceItem } from "../sources/convert-sources.js";
import { decodeText } from "../sources/decode-text.js";
import { documentListSchema, sourceSchema, sourcesMetaSchema } from "../sources/socket-schemas.js";
import { mergeMeta } from "../sources/source-meta.js";
import { encodingSchema, sourceParamsShape } from "../sources/source-params.js";
import { applySelector, parseSelector } from "./json-selector.js";

const paramsSchema = z
  .object({
    /**
     * A jq path selecting the values to convert (`.laureates[]`); only jq's paths are supported (see
     * `docs/converters.md`). Without it the whole file is the one value.
     */
    jqSchema: z
      .string()
      .optional()
      .superRefine((selector, context) => {
        if (selector === undefined) return;
        try {
          parseSelector(selector);
        } catch (error) {
          context.addIssue({ code: "custom", message: (error as Error).message });
        }
      }),
    /** The key of each selected object whose value becomes the content. */
    contentKey: z.string().optional(),
    /** Keys of each selected object copied to meta (a missing key gives `null`), or `"*"` for every other key. */
    extraMetaFields: z.union([z.array(z.string()), z.literal("*")]).optional(),
    encoding: encodingSchema,
    ...sourceParamsShape,
  })
  .refine((params) => params.jqSchema !== undefined || params.contentKey !== undefined, {
    message: "set jqSchema, contentKey, or both: they say what in the JSON becomes a document's content.",
  });

type JSONConverterParams = z.output<typeof paramsSchema>;

/**
 * Turns JSON files into Documents, as Haystack's `JSONConverter`. `jqSchema` selects values (a path:
 * `.laureates[]`); `contentKey` names the key of each selected object whose value is the content; with
 * only `jqSchema`, each selected value must be a scalar and is the content. `extraMetaFields` copies keys
 * to meta. A selected value of the wrong shape is skipped with a warning naming the file and the item.
 *
 * @example
 * ```ts
 * const converter = new JSONConverter({ jqSchema: ".laureates[]", contentKey: "motivation", extraMetaFields: ["firstname"] });
 * const { documents } = await converter.run({ sources: [ByteStream.fromString(JSON.stringify(data))] });
 * ```
 */
export const JSONConverter = defineComponent({
  type: "junction.JSONConverter",
  description: "Converts JSON files into Documents, selecting values with a jq path.",
  params: paramsSchema,
  inputs: { sources: z.array(sourceSchema), meta: sourcesMetaSchema },
  outputs: { documents: documentListSchema },
  setup: (params) => ({ select: selectorFunction(params.jqSchema) }),
  run: async ({ sources, meta }, { params, resources, logger, signal, componentName }) => ({
    documents: await convertSources({
      sources,
      meta,
      params,
      context: { logger, signal, componentName },
      type: "junction.JSONConverter",
      convert: (item) => convertJSON(item, params, resources.select),
    }),
  }),
});

/** A `JSONConverter` instance. */
export type JSONConverter = InstanceType<typeof JSONConverter>;

/** The compiled `jqSchema`: a function from the parsed file to the selected values. */
function selectorFunction(jqSchema: string | undefined): ((root: unknown) => unknown[]) | undefined {
  if (jqSchema === undefined) return undefined;
  const steps = parseSelector(jqSchema);
  return (root) => applySelector(steps, root);
}

function convertJSON(
  item: SourceItem,
  params: JSONConverterParams,
  select: ((root: unknown) => unknown[]) | undefined,
): Document[] {
  const { stream, label, described } = item;
  const text = decodeText(stream, params.encoding, label, described);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ConversionError(`${label}: ${described} is not valid JSON (${(error as Error).message}).`, {
      reason: "corrupt",
      source: described,
      cause: error,
    });
  }
  let values: unknown[];
  try {
    values = select === undefined ? [parsed] : select(parsed);
  } catch (error) {
    throw new ConversionError(
      `${label}: jqSchema "${excerpt(params.jqSchema)}" does not fit ${described}: ${(error as Error).message}.`,
      { reason: "corrupt", source: described, cause: error },
    );
  }
  const documents: Document[] = [];
  values.forEach((value, index) => {
    const extracted = extract(value, params);
    if (typeof extracted === "string") {
      item.warn(`${label}: item ${index} of ${described} ${extracted}; skipped it.`);
      return;
    }
    documents.push(
      new Document({
        content: extracted.content,
        meta: mergeMeta([stream.meta, item.meta, extracted.meta], stream.meta, params.storeFullPath),
      }),
    );
  });
  return documents;
}

/** The content and meta of one selected value, or why it was skipped. */
function extract(
  value: unknown,
  params: JSONConverterParams,
): { content: string; meta: Record<string, unknown> } | string {
  const { contentKey, extraMetaFields } = params;
  if (contentKey === undefined) {
    if (typeof value === "object")
      return `is ${describe(value)}, not a scalar (set contentKey to read a key of it)`;
    return { content: String(value), meta: {} };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return `is ${describe(value)}, not an object with "${excerpt(contentKey)}"`;
  }
  const record = value as Record<string, unknown>;
  if (!Object.hasOwn(record, contentKey)) return `has no key "${excerpt(contentKey)}" (contentKey)`;
  const content = record[contentKey];
  if (typeof content === "object")
    return `has ${describe(content)} under "${excerpt(contentKey)}", not a scalar`;
  const meta: Record<string, unknown> = {};
  if (extraMetaFields === "*") {
    for (const [key, field] of Object.entries(record)) if (key !== contentKey) meta[key] = field;
  } else {
    for (const key of extraMetaFields ?? []) meta[key] = Object.hasOwn(record, key) ? record[key] : null;
  }
  return { content: String(content), meta };
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}
