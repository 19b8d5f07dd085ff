import { ComponentError, defineComponent, type Logger } from "@junction/core";
import { z } from "zod";
import type { Document } from "../document/document.js";
import { componentLabel } from "../joiners/component-label.js";
import { documentListSchema } from "../joiners/document-list.js";
import { concatenateDocuments, rrfK } from "../joiners/join-modes.js";
import {
  type MetaValueType,
  metaValueTypes,
  mixesZonedAndNaiveDates,
  parseMetaValues,
  sortIndices,
} from "./meta-values.js";

const rankingModes = ["reciprocal_rank_fusion", "linear_score"] as const;
const sortOrders = ["ascending", "descending"] as const;
const missingMetaPolicies = ["drop", "top", "bottom"] as const;
const weightSchema = z
  .number()
  .min(0, "weight must be in [0, 1]: 0 disables ranking by the meta field, 1 ranks by it only")
  .max(1, "weight must be in [0, 1]: 0 disables ranking by the meta field, 1 ranks by it only");
const topKSchema = z.number().int().positive();

type RankingMode = (typeof rankingModes)[number];

const ids = (documents: readonly Document[]) => documents.map((document) => document.id).join(",");

/** Combines the incoming order and the meta order into scores, then sorts by them (Haystack's way). */
function mergeRankings(
  documents: readonly Document[],
  sortedDocuments: readonly Document[],
  weight: number,
  rankingMode: RankingMode,
  logger: Logger,
  label: string,
): Document[] {
  const scores = new Map<string, number>();
  const add = (id: string, value: number) => scores.set(id, (scores.get(id) ?? 0) + value);
  documents.forEach((document, rank) => {
    const sortedDocument = sortedDocuments[rank] as Document;
    if (rankingMode === "reciprocal_rank_fusion") {
      add(document.id, (1 / (rrfK + rank)) * (1 - weight));
      add(sortedDocument.id, (1 / (rrfK + rank)) * weight);
      return;
    }
    let score = 0;
    if (document.score === undefined) {
      logger.warn(`${label}: the score wasn't provided; defaulting to 0.`, { documentId: document.id });
    } else if (document.score < 0 || document.score > 1) {
      logger.warn(
        `${label}: the score ${document.score} for document "${document.id}" is outside the [0,1] range; defaulting to 0.`,
        { documentId: document.id },
      );
    } else {
      score = document.score;
    }
    add(document.id, score * (1 - weight));
    add(sortedDocument.id, ((sortedDocuments.length - rank) / sortedDocuments.length) * weight);
  });
  const scored = documents.map((document) => document.with({ score: scores.get(document.id) ?? 0 }));
  // Haystack sorts by `score if score else -1`: a score of 0 sorts like -1.
  return scored.sort((a, b) => (b.score || -1) - (a.score || -1));
}

/**
 * Ranks documents by a meta field (a date, a rating, a view count) combined with the order they
 * arrived in, as Haystack's `MetaFieldRanker` does. Duplicates (by id) are dropped first, keeping the
 * highest-scored copy.
 *
 * `weight` in [0, 1]: 0 keeps the incoming order, 1 ranks by the meta field only. `rankingMode`
 * `reciprocal_rank_fusion` (default) scores Σ 1/(61+rank) per ranking, weighted; `linear_score` mixes the
 * incoming scores (which must be in [0, 1]) with a linear meta score. `sortOrder` is the meta order;
 * `missingMeta` puts documents without the field at the `bottom` (default) or `top`, or `drop`s them;
 * `metaValueType` parses string values as `float`, `int` or `date` first. Every option can be
 * overridden per run through the snake_case input of the same name. Problems (no document has the
 * field, values that cannot be compared or parsed) are logged as warnings and the incoming order is kept.
 *
 * @example
 * ```ts
 * const ranker = new MetaFieldRanker({ metaField: "rating", weight: 0.5 });
 * ```
 */
export const MetaFieldRanker = defineComponent({
  type: "junction.MetaFieldRanker",
  description: "Ranks documents by a meta field combined with their incoming order.",
  params: z.object({
    metaField: z.string().min(1, "metaField names the meta key to rank by"),
    weight: weightSchema.default(1),
    topK: topKSchema.nullish(),
    rankingMode: z.enum(rankingModes).default("reciprocal_rank_fusion"),
    sortOrder: z.enum(sortOrders).default("descending"),
    missingMeta: z.enum(missingMetaPolicies).default("bottom"),
    metaValueType: z.enum(metaValueTypes).nullish(),
  }),
  inputs: {
    documents: documentListSchema,
    top_k: z.number().int().nullish(),
    weight: z.number().nullish(),
    ranking_mode: z.enum(rankingModes).nullish(),
    sort_order: z.enum(sortOrders).nullish(),
    missing_meta: z.enum(missingMetaPolicies).nullish(),
    meta_value_type: z.enum(metaValueTypes).nullish(),
  },
  outputs: { documents: documentListSchema },
  run: (inputs, { params: options, componentName, logger }) => {
    const label = componentLabel("MetaFieldRanker", componentName);
    if (inputs.documents.length === 0) return { documents: [] };
    const topK = inputs.top_k ?? options.topK ?? undefined;
    const weight = inputs.weight ?? options.weight;
    const rankingMode = inputs.ranking_mode ?? options.rankingMode;
    const descending = (inputs.sort_order ?? options.sortOrder) === "descending";
    const missingMeta = inputs.missing_meta ?? options.missingMeta;
    const metaValueType: MetaValueType | undefined =
      inputs.meta_value_type ?? options.metaValueType ?? undefined;
    const invalid =
      topK !== undefined && topK <= 0
        ? ["top_k", `must be > 0, but got ${topK}`]
        : weight < 0 || weight > 1
          ? [
              "weight",
              `must be in [0, 1] but is ${weight}; 0 disables ranking by the meta field, 1 ranks by it only`,
            ]
          : undefined;
    if (invalid !== undefined) {
      throw new ComponentError(`${label}.run: "${invalid[0]}" ${invalid[1]}.`, {
        componentType: "junction.MetaFieldRanker",
        componentName,
        socket: invalid[0],
      });
    }
    const field = options.metaField;
    const unique = concatenateDocuments([inputs.documents]);
    const top = (documents: readonly Document[]) => ({ documents: documents.slice(0, topK) });
    if (weight === 0) return top(unique);
    const withField = unique.filter((document) => Object.hasOwn(document.meta, field));
    const withoutField = unique.filter((document) => !Object.hasOwn(document.meta, field));
    if (withField.length === 0) {
      logger.warn(
        `${label}: none of the documents with ids ${ids(unique)} has the meta field "${field}". Set metaField to a field the documents have. Returning the top_k of the incoming documents, since there are no values to rank.`,
      );
      return top(unique);
    }
    if (withoutField.length > 0) {
      const consequence =
        missingMeta === "drop"
          ? "removed from the list of retrieved documents"
          : `placed at the ${missingMeta === "top" ? "top" : "end"} of the sorting order`;
      logger.warn(
        `${label}: the documents with ids ${ids(withoutField)} don't have the meta field "${field}". Because missingMeta is "${missingMeta}", they are ${consequence}.`,
      );
    }
    let values: unknown[] = withField.map((document) => document.meta[field]);
    if (metaValueType !== undefined) {
      if (!values.every((value) => typeof value === "string")) {
        logger.warn(
          `${label}: metaValueType is "${metaValueType}", but not all values of "${field}" in the documents with ids ${ids(withField)} are strings. Skipping parsing of the meta values; make them all strings to use metaValueType.`,
        );
      } else {
        try {
          values = parseMetaValues(values as string[], metaValueType);
        } catch (error) {
          logger.warn(
            `${label}: could not parse the meta values of the documents with ids ${ids(withField)} as ${metaValueType} (${(error as Error).message}). Skipping parsing of the meta values.`,
          );
        }
      }
    }
    const mixedZones =
      metaValueType === "date" &&
      values.every((value) => typeof value === "number") &&
      mixesZonedAndNaiveDates(withField.map((document) => String(document.meta[field])));
    const order = mixedZones ? undefined : sortIndices(values, descending);
    if (order === undefined) {
      logger.warn(
        `${label}: the values of "${field}" in the documents with ids ${ids(withField)} cannot be compared with each other (${mixedZones ? "dates with and without a time zone" : "mixed types"}). Returning the top_k of the incoming documents, since ranking by the meta field is not possible.`,
      );
      return top(unique);
    }
    const sortedByMeta = order.map((index) => withField[index] as Document);
    if (missingMeta === "drop") {
      return top(mergeRankings(withField, sortedByMeta, weight, rankingMode, logger, label));
    }
    const sorted =
      missingMeta === "top" ? [...withoutField, ...sortedByMeta] : [...sortedByMeta, ...withoutField];
    return top(mergeRankings(unique, sorted, weight, rankingMode, logger, label));
  },
});

/** A `MetaFieldRanker` instance (the class doubles as the instance type). */
export type MetaFieldRanker = InstanceType<typeof MetaFieldRanker>;
