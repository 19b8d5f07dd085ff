import type {
  LanguageModelV2,
  LanguageModelV2CallOptions,
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3FinishReason,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
  LanguageModelV3Usage,
} from "@ai-sdk/provider";
import { ComponentError } from "@junction/core";

/**
 * An AI SDK language model of specification v4 (`@ai-sdk/provider` 4.x, AI SDK 7), declared here by shape:
 * `@ai-sdk/provider` 4 needs Node 22, and Junction supports Node 20. It differs from v3 in what this adapter
 * reads only by the `"interrupted"` finish reason and the `"ping"` stream part.
 */
export interface LanguageModelV4 {
  /** The specification version. */
  readonly specificationVersion: "v4";
  /** The provider, e.g. `"openai.chat"`. */
  readonly provider: string;
  /** The model id, e.g. `"gpt-5-mini"`. */
  readonly modelId: string;
  /** URL patterns the model downloads itself, by media type. */
  readonly supportedUrls: unknown;
  /** One call without streaming. */
  doGenerate(options: LanguageModelV3CallOptions & { readonly reasoning?: unknown }): PromiseLike<
    Omit<LanguageModelV3GenerateResult, "finishReason"> & {
      readonly finishReason: LanguageModelV4FinishReason;
    }
  >;
  /** One streamed call. */
  doStream(options: LanguageModelV3CallOptions & { readonly reasoning?: unknown }): PromiseLike<{
    readonly stream: ReadableStream<
      | Exclude<LanguageModelV3StreamPart, { type: "finish" }>
      | {
          readonly type: "finish";
          readonly usage: LanguageModelV3Usage;
          readonly finishReason: LanguageModelV4FinishReason;
        }
      | { readonly type: "ping" }
    >;
  }>;
}

/** A v4 finish reason: v3's plus `"interrupted"`. */
export interface LanguageModelV4FinishReason {
  /** The normalized reason. */
  readonly unified: LanguageModelV3FinishReason["unified"] | "interrupted";
  /** The provider's own value. */
  readonly raw: string | undefined;
}

/** Any AI SDK language model this adapter accepts: specification v2, v3 or v4. */
export type AISDKLanguageModel = LanguageModelV2 | LanguageModelV3 | LanguageModelV4;

/** The specification versions {@link AISDKChatGenerator} accepts. */
export const supportedSpecificationVersions = Object.freeze(["v2", "v3", "v4"] as const);

/** The call options every supported version accepts (v2's are a subset of v3's and v4's). */
export type CallOptions = LanguageModelV2CallOptions & LanguageModelV3CallOptions;

/** What `doGenerate` resolves to, in any supported version (structurally). */
export type GenerateResult = Awaited<ReturnType<AISDKLanguageModel["doGenerate"]>>;

/** What `doStream` resolves to, in any supported version. */
export type StreamResult = LanguageModelV3StreamResult | Awaited<ReturnType<AISDKLanguageModel["doStream"]>>;

/**
 * True when `value` has the shape of a supported AI SDK language model. Recognized by shape, not by
 * class, so models built by any copy or version of a provider package are accepted.
 *
 * @param value - anything
 */
export function isAISDKLanguageModel(value: unknown): value is AISDKLanguageModel {
  if (typeof value !== "object" || value === null) return false;
  const model = value as Record<string, unknown>;
  return (
    (supportedSpecificationVersions as readonly unknown[]).includes(model.specificationVersion) &&
    typeof model.doGenerate === "function" &&
    typeof model.doStream === "function"
  );
}

/**
 * Checks that `value` is a supported language model and says what is wrong when it is not.
 *
 * @throws ComponentError naming the supported specification versions
 */
export function checkLanguageModel(value: unknown): AISDKLanguageModel {
  if (isAISDKLanguageModel(value)) return value;
  const supported = supportedSpecificationVersions.map((version) => `"${version}"`).join(", ");
  const version =
    typeof value === "object" && value !== null
      ? (value as Record<string, unknown>).specificationVersion
      : undefined;
  const found =
    version === undefined
      ? typeof value === "string"
        ? `the string ${JSON.stringify(value)} (a model id, not a model)`
        : "an object without `specificationVersion`, `doGenerate` and `doStream`"
      : typeof version === "string" &&
          !(supportedSpecificationVersions as readonly string[]).includes(version)
        ? `a language model of specification version ${JSON.stringify(version)}`
        : "an object that lacks `doGenerate` or `doStream`";
  throw new ComponentError(
    `AISDKChatGenerator: \`model\` must be an AI SDK language model of specification version ${supported}; got ${found}. Pass a provider's model, e.g. \`openai("gpt-5-mini")\` from "@ai-sdk/openai".`,
    { componentType: "junction.AISDKChatGenerator" },
  );
}
