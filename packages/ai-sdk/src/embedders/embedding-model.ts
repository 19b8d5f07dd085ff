import type {
  EmbeddingModelV2,
  EmbeddingModelV3,
  EmbeddingModelV3CallOptions,
  EmbeddingModelV3Result,
} from "@ai-sdk/provider";
import { ComponentError } from "@junction/core";

/**
 * An AI SDK embedding model of specification v4 (`@ai-sdk/provider` 4.x, AI SDK 7), declared here by
 * shape (that package needs Node 22). Its `doEmbed` takes and returns what v3's does, as far as the
 * embedders read it.
 */
export interface EmbeddingModelV4 {
  /** The specification version. */
  readonly specificationVersion: "v4";
  /** The provider, e.g. `"openai.embedding"`. */
  readonly provider: string;
  /** The model id, e.g. `"text-embedding-3-small"`. */
  readonly modelId: string;
  /** How many values one call may embed (`Infinity` or `undefined` when unlimited). */
  readonly maxEmbeddingsPerCall: PromiseLike<number | undefined> | number | undefined;
  /** Whether calls may run in parallel. */
  readonly supportsParallelCalls: PromiseLike<boolean> | boolean;
  /** Embeds the values, in order. */
  doEmbed(options: EmbeddingModelV3CallOptions): PromiseLike<EmbeddingModelV3Result>;
}

/** Any AI SDK embedding model the embedders accept: specification v2 (of strings), v3 or v4. */
export type AISDKEmbeddingModel = EmbeddingModelV2<string> | EmbeddingModelV3 | EmbeddingModelV4;

/** The embedding model specification versions the AI SDK embedders accept. */
export const supportedEmbeddingSpecificationVersions = Object.freeze(["v2", "v3", "v4"] as const);

/**
 * True when `value` has the shape of a supported AI SDK embedding model (by shape, not class, so a
 * model from any copy or version of a provider package is accepted).
 *
 * @param value - anything
 */
export function isAISDKEmbeddingModel(value: unknown): value is AISDKEmbeddingModel {
  if (typeof value !== "object" || value === null) return false;
  const model = value as Record<string, unknown>;
  return (
    (supportedEmbeddingSpecificationVersions as readonly unknown[]).includes(model.specificationVersion) &&
    typeof model.doEmbed === "function"
  );
}

/**
 * Checks that `value` is a supported embedding model and says what is wrong when it is not.
 *
 * @param value - the `model` option
 * @param label - the component, e.g. `"AISDKTextEmbedder"`
 * @throws ComponentError naming the supported versions and showing how to make an embedding model
 */
export function checkEmbeddingModel(value: unknown, label: string): AISDKEmbeddingModel {
  if (isAISDKEmbeddingModel(value)) return value;
  const record = typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
  const found =
    typeof value === "string"
      ? `the string ${JSON.stringify(value)} (a model id, not a model)`
      : typeof record.doGenerate === "function"
        ? "a language model (it has `doGenerate`), not an embedding model"
        : record.specificationVersion === undefined
          ? "an object without `specificationVersion` and `doEmbed`"
          : `an embedding model of specification version ${JSON.stringify(record.specificationVersion)}`;
  const supported = supportedEmbeddingSpecificationVersions.map((version) => `"${version}"`).join(", ");
  throw new ComponentError(
    `${label}: \`model\` must be an AI SDK embedding model of specification version ${supported}; got ${found}. Pass a provider's embedding model, e.g. \`openai.embedding("text-embedding-3-small")\` from "@ai-sdk/openai".`,
    { componentType: `junction.${label}` },
  );
}

/**
 * The batch size to use: `batchSize`, capped by the model's `maxEmbeddingsPerCall` when it declares a
 * finite limit (a provider refuses larger calls).
 *
 * @param model - the embedding model
 * @param batchSize - the configured batch size
 */
export async function effectiveBatchSize(model: AISDKEmbeddingModel, batchSize: number): Promise<number> {
  const limit = await model.maxEmbeddingsPerCall;
  return typeof limit === "number" && Number.isFinite(limit) && limit >= 1
    ? Math.min(batchSize, Math.floor(limit))
    : batchSize;
}
