import { ComponentError, defineComponent, variadic } from "@junction/core";
import { z } from "zod";
import type { Document } from "../document/document.js";
import { componentLabel } from "./component-label.js";
import { documentListSchema } from "./document-list.js";
import {
  concatenateDocuments,
  distributionBasedRankFusion,
  type JoinMode,
  joinModes,
  mergeDocuments,
  reciprocalRankFusion,
} from "./join-modes.js";

const params = z
  .object({
    joinMode: z.enum(joinModes).default("concatenate"),
    weights: z.array(z.number().finite()).nullish(),
    topK: z.number().int().positive().nullish(),
    sortByScore: z.boolean().default(true),
  })
  .superRefine((value, context) => {
    if (value.weights !== undefined && value.weights !== null && value.weights.length > 0) {
      const sum = value.weights.reduce((total, weight) => total + weight, 0);
      if (sum === 0) {
        context.addIssue({
          code: "custom",
          path: ["weights"],
          message:
            "the weights sum to zero; give weights with a non-zero sum (they are normalized to sum 1).",
        });
      }
    }
  });

/** Weights normalized to sum 1, or `undefined` for equal weights (Haystack's `weights or None`). */
function normalizeWeights(weights: readonly number[] | null | undefined): readonly number[] | undefined {
  if (weights === undefined || weights === null || weights.length === 0) return undefined;
  const sum = weights.reduce((total, weight) => total + weight, 0);
  return weights.map((weight) => weight / sum);
}

function checkWeights(
  weights: readonly number[] | undefined,
  listCount: number,
  joinMode: JoinMode,
  componentName: string | undefined,
): readonly number[] {
  if (weights === undefined) return new Array<number>(listCount).fill(1 / listCount);
  if (weights.length !== listCount) {
    throw new ComponentError(
      `${componentLabel("DocumentJoiner", componentName)}.run: ${weights.length} weight${weights.length === 1 ? "" : "s"} for ${listCount} document list${listCount === 1 ? "" : "s"} on "documents" (join mode "${joinMode}"). Give one weight per connected sender, in the order the lists arrive, or leave "weights" out for equal weights.`,
      { componentType: "junction.DocumentJoiner", componentName, socket: "documents" },
    );
  }
  return weights;
}

/**
 * Joins the lists of documents from several senders (retrievers, typically) into one list, as
 * Haystack's `DocumentJoiner` does. Duplicates are recognised by document id (never by content).
 *
 * - `concatenate` (default): every document once, keeping the highest-scored copy.
 * - `merge`: score = Σ wᵢ·sᵢ over the lists it is in (a missing score counts 0).
 * - `reciprocal_rank_fusion`: score = Σ wᵢ·61/(61+rankᵢ), ranks 0-based (1.0 when first everywhere).
 * - `distribution_based_rank_fusion`: each list rescaled by `(s−(μ−3σ))/6σ`, then concatenated.
 *
 * `weights` (merge and RRF only) are normalized to sum 1; default equal. With `sortByScore` the output
 * is sorted by score, descending, a missing score counting as −∞. The sort is stable: ties keep the
 * order in which their ids first arrived (list by list, in the order the pipeline delivers the lists).
 * `topK` (or the `top_k` input, which overrides it; 0 returns nothing) truncates the result.
 *
 * @example
 * ```ts
 * const joiner = new DocumentJoiner({ joinMode: "reciprocal_rank_fusion" });
 * pipeline.connect("bm25.documents", "joiner.documents");
 * pipeline.connect("embedding.documents", "joiner.documents");
 * ```
 */
export const DocumentJoiner = defineComponent({
  type: "junction.DocumentJoiner",
  description: "Joins lists of documents into one list (concatenate, merge, or rank fusion).",
  params,
  inputs: {
    documents: variadic(documentListSchema),
    top_k: z.number().int().nullish(),
  },
  outputs: { documents: documentListSchema },
  setup: (options) => ({ weights: normalizeWeights(options.weights) }),
  run: ({ documents, top_k }, { params: options, resources, componentName, logger }) => {
    const lists = documents as readonly (readonly Document[])[];
    let joined: Document[];
    switch (options.joinMode) {
      case "concatenate":
        joined = concatenateDocuments(lists);
        break;
      case "distribution_based_rank_fusion":
        joined = distributionBasedRankFusion(lists);
        break;
      case "merge":
      case "reciprocal_rank_fusion": {
        if (lists.length === 0) {
          joined = [];
          break;
        }
        const weights = checkWeights(resources.weights, lists.length, options.joinMode, componentName);
        joined =
          options.joinMode === "merge"
            ? mergeDocuments(lists, weights)
            : reciprocalRankFusion(lists, weights);
        break;
      }
    }
    if (options.sortByScore) {
      joined.sort(
        (a, b) => (b.score ?? Number.NEGATIVE_INFINITY) - (a.score ?? Number.NEGATIVE_INFINITY) || 0,
      );
      if (joined.some((document) => document.score === undefined)) {
        logger.info(
          `${componentLabel("DocumentJoiner", componentName)}: some documents have no score; they were sorted as if their score were -infinity.`,
        );
      }
    }
    if (top_k !== undefined && top_k !== null) {
      if (top_k < 0) {
        throw new ComponentError(
          `${componentLabel("DocumentJoiner", componentName)}.run: "top_k" is ${top_k}; it must not be negative (0 returns no documents).`,
          { componentType: "junction.DocumentJoiner", componentName, socket: "top_k" },
        );
      }
      return { documents: joined.slice(0, top_k) };
    }
    return {
      documents: options.topK === undefined || options.topK === null ? joined : joined.slice(0, options.topK),
    };
  },
});

/** A `DocumentJoiner` instance (the class doubles as the instance type). */
export type DocumentJoiner = InstanceType<typeof DocumentJoiner>;
