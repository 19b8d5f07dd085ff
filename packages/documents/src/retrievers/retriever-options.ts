import { z } from "zod";
import { filterPolicies } from "../filters/filter-policy.js";
import { filterSchema } from "../filters/filter-schema.js";

/** The params every retriever of a store shares: init filters, `topK`, `scaleScore`, `filterPolicy`. */
export const retrieverParamsShape = {
  /** Filters applied to every run (combined with run-time filters by `filterPolicy`). */
  filters: filterSchema.nullish(),
  /** How many documents to return at most (default 10). */
  topK: z.number().int().positive().default(10),
  /** Scale scores to (0, 1) (default `false`). */
  scaleScore: z.boolean().default(false),
  /** `"replace"` (default): run-time filters replace the init filters; `"merge"`: both apply. */
  filterPolicy: z.enum(filterPolicies).default("replace"),
};

/** The run-time sockets every retriever of a store shares besides its query. */
export const retrieverInputsShape = {
  /** Filters for this run (see the `filterPolicy` param). */
  filters: filterSchema.nullish(),
  /** Overrides the `topK` param for this run. */
  top_k: z.number().int().nonnegative().nullish(),
  /** Overrides the `scaleScore` param for this run. */
  scale_score: z.boolean().nullish(),
};
