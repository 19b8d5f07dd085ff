import { type ByteStream, byteStreamSchema, documentSchema } from "@junction/documents";
import { z } from "zod";

/** The `documents` output of every converter. */
export const documentListSchema = z.array(documentSchema);

/** The `streams` output of `LinkContentFetcher`. */
export const byteStreamListSchema = z.array(byteStreamSchema);

/** One converter source: a file path (or `file:` URL) or a `ByteStream`. */
export const sourceSchema = z.union([z.string(), byteStreamSchema]);

/** What a converter's `sources` input takes: a file path (or `file:` URL) or a `ByteStream`. */
export type Source = string | ByteStream;

const metaObjectSchema = z.record(z.string(), z.unknown());

/** The `meta` input: one object for every source, or a list with one object per source. */
export const sourcesMetaSchema = z.union([metaObjectSchema, z.array(metaObjectSchema)]).optional();

/** The `meta` input: one object for every source, or a list with one object per source. */
export type SourcesMeta = Record<string, unknown> | Record<string, unknown>[] | undefined;
