import { ComponentError, defineComponent } from "@junction/core";
import { textEmbedderInputs, textEmbedderOutputs } from "@junction/documents";
import { createClient, type ResolvedClient } from "../create-client.js";
import { createEmbeddings } from "./create-embeddings.js";
import { openAITextEmbedderParamsSchema } from "./openai-embedder-params.js";

const TYPE = "junction.OpenAITextEmbedder";
const LABEL = "OpenAITextEmbedder";

interface ClientHolder {
  current: ResolvedClient | undefined;
}

/**
 * Embeds one string with an OpenAI embedding model, or any OpenAI-compatible server (Ollama, vLLM, ...)
 * through `baseURL`: `run({ text }) → { embedding, meta: { model, usage: { prompt_tokens, total_tokens } } }`,
 * as Haystack's `OpenAITextEmbedder`. Use it for queries, next to an {@link OpenAIDocumentEmbedder} with the
 * same model for the documents.
 *
 * - The text sent is `prefix + text + suffix`; `dimensions` is sent when set.
 * - Options as `OpenAIChatGenerator`: `apiKey` (default env `OPENAI_API_KEY`, written out as an env-var
 *   reference), `baseURL`, `organization`, `timeout` (ms), `maxRetries`.
 * - Failures are redacted `OpenAIApiError`s; aborting the run's `signal` cancels the request.
 *
 * @example
 * ```ts
 * const embedder = new OpenAITextEmbedder({ model: "text-embedding-3-small" });
 * const { embedding } = await embedder.run({ text: "What is the capital of France?" });
 * ```
 */
export const OpenAITextEmbedder = defineComponent({
  type: TYPE,
  description: "Embeds a string with an OpenAI embedding model or any OpenAI-compatible server.",
  params: openAITextEmbedderParamsSchema,
  inputs: textEmbedderInputs(LABEL, "OpenAIDocumentEmbedder"),
  outputs: textEmbedderOutputs,
  setup: (): ClientHolder => ({ current: undefined }),
  warmUp: ({ params, resources }) => {
    resources.current ??= createClient({ ...params, componentLabel: LABEL });
  },
  close: ({ resources }) => {
    resources.current = undefined;
  },
  run: async ({ text }, context) => {
    const { params, resources } = context;
    if (typeof text !== "string") {
      throw new ComponentError(
        `${LABEL} expects a string as \`text\`, got ${Array.isArray(text) ? "a list" : typeof text}. To embed a list of documents, use OpenAIDocumentEmbedder.`,
        { componentType: TYPE, componentName: context.componentName, socket: "text" },
      );
    }
    resources.current ??= createClient({ ...params, componentLabel: LABEL });
    const result = await createEmbeddings({
      resolved: resources.current,
      model: params.model,
      dimensions: params.dimensions,
      input: params.prefix + text + params.suffix,
      signal: context.signal,
      componentLabel: LABEL,
    });
    const embedding = result.embeddings[0];
    if (embedding === undefined) {
      throw new ComponentError(
        `${LABEL}: the server at "${resources.current.baseURL}" answered without an embedding for model "${params.model}". Check that the server supports /embeddings.`,
        { componentType: TYPE, componentName: context.componentName },
      );
    }
    return {
      embedding: [...embedding],
      meta: {
        model: result.model ?? params.model,
        usage: result.usage ?? { prompt_tokens: 0, total_tokens: 0 },
      },
    };
  },
});

/** An `OpenAITextEmbedder` instance. */
export type OpenAITextEmbedder = InstanceType<typeof OpenAITextEmbedder>;
