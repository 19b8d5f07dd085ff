/**
 * A Haystack pipeline YAML, brought over by hand ([For Haystack users](../docs/haystack-users.md#bringing-a-haystack-yaml-over)).
 *
 * `haystackYAML` is what Haystack's `Pipeline.dumps()` writes for a BM25 → prompt → OpenAI pipeline.
 * Junction refuses it and lists every reason (no `version`, Python import paths as types, snake_case
 * options); `junctionYAML` is the same pipeline after the edits (its template reads the same in Jinja
 * and Liquid, so it needs none), and it loads, validates and runs. Offline (no OPENAI_API_KEY /
 * OPENAI_BASE_URL) the loaded `llm` is swapped for a ScriptedChatGenerator that answers with the first
 * retrieved line, and the example says so.
 *
 * Run: npx tsx --conditions=@junction/source examples/haystack-yaml.ts
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DeserializationError, Pipeline } from "@junction/core";
import { Document, InMemoryDocumentStore } from "@junction/documents";
import { ScriptedChatGenerator } from "@junction/llm";
// Loading finds a type only once its package is imported (registration is a side effect of the import).
import "@junction/components"; // junction.ChatPromptBuilder
import "@junction/openai"; // junction.OpenAIChatGenerator
import { type ExampleIO, runIfMain } from "./io.js";

/** As Haystack 2.x `Pipeline.dumps()` writes it (abridged: the generator's null options left out). */
export const haystackYAML = `components:
  retriever:
    type: haystack.components.retrievers.in_memory.bm25_retriever.InMemoryBM25Retriever
    init_parameters:
      document_store:
        type: haystack.document_stores.in_memory.document_store.InMemoryDocumentStore
        init_parameters:
          bm25_algorithm: BM25L
          embedding_similarity_function: dot_product
      top_k: 3
      filter_policy: replace
  prompt_builder:
    type: haystack.components.builders.chat_prompt_builder.ChatPromptBuilder
    init_parameters:
      template: "{% message role=\\"user\\" %}{% for doc in documents %}{{ doc.content }}\\n{% endfor %}Question: {{ question }}{% endmessage %}"
      required_variables: [question]
  llm:
    type: haystack.components.generators.chat.openai.OpenAIChatGenerator
    init_parameters:
      api_key: { type: env_var, env_vars: [OPENAI_API_KEY], strict: true }
      model: gpt-4o-mini
      generation_kwargs: { temperature: 0 }
connections:
- sender: retriever.documents
  receiver: prompt_builder.documents
- sender: prompt_builder.prompt
  receiver: llm.messages
max_runs_per_component: 100
metadata: {}
`;

/**
 * The same pipeline for Junction: `version: 1`; each type `junction.<ClassName>`; options camelCase;
 * the store given a `path` so the loaded pipeline finds its documents. Connections, secrets,
 * `max_runs_per_component` and `metadata` are written as Haystack writes them.
 */
export function junctionYAML(storePath: string): string {
  return `version: 1
components:
  retriever:
    type: junction.InMemoryBM25Retriever
    init_parameters:
      documentStore:
        type: junction.InMemoryDocumentStore
        init_parameters:
          bm25Algorithm: BM25L
          embeddingSimilarityFunction: dot_product
          path: ${JSON.stringify(storePath)}
      topK: 3
      filterPolicy: replace
  prompt_builder:
    type: junction.ChatPromptBuilder
    init_parameters:
      template: "{% message role=\\"user\\" %}{% for doc in documents %}{{ doc.content }}\\n{% endfor %}Question: {{ question }}{% endmessage %}"
      requiredVariables: [question]
  llm:
    type: junction.OpenAIChatGenerator
    init_parameters:
      apiKey: { type: env_var, env_vars: [OPENAI_API_KEY], strict: true }
      model: gpt-4o-mini
      generationKwargs: { temperature: 0 }
connections:
- sender: retriever.documents
  receiver: prompt_builder.documents
- sender: prompt_builder.prompt
  receiver: llm.messages
max_runs_per_component: 100
metadata: {}
`;
}

/** Prints why Haystack's own YAML is refused, then loads and runs the converted one. */
export async function main(
  io: ExampleIO & { env?: NodeJS.ProcessEnv; directory?: string },
): Promise<{ refused: string[]; answer: string | undefined }> {
  const env = io.env ?? process.env;
  let refused: string[] = [];
  try {
    Pipeline.fromYAML(haystackYAML);
  } catch (error) {
    if (!(error instanceof DeserializationError)) throw error;
    refused = error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message.split(". ")[0]}`);
    io.write(`Haystack's YAML is refused (${refused.length} problems):\n`);
    for (const line of refused) io.write(`  - ${line}\n`);
  }

  // A store file for the converted document to point at.
  const directory = io.directory ?? mkdtempSync(join(tmpdir(), "junction-haystack-yaml-"));
  const storePath = join(directory, "store.json");
  const store = new InMemoryDocumentStore({ path: storePath });
  await store.writeDocuments([
    new Document({ content: "Lake Baikal is the deepest lake on Earth, at 1,642 metres." }),
    new Document({ content: "The Nile is about 6,650 km long." }),
  ]);

  const pipeline = Pipeline.fromYAML(junctionYAML(storePath));
  io.write(`converted YAML loads: ${pipeline.componentNames().join(" → ")}\n`);
  if (env.OPENAI_API_KEY === undefined && env.OPENAI_BASE_URL === undefined) {
    io.write(
      "offline: llm swapped for a ScriptedChatGenerator (set OPENAI_API_KEY or OPENAI_BASE_URL for the real one)\n",
    );
    pipeline.removeComponent("llm");
    pipeline
      .addComponent(
        "llm",
        new ScriptedChatGenerator({ respond: (messages) => messages.at(-1)?.text?.split("\n")[0] ?? "" }),
      )
      .connect("prompt_builder.prompt", "llm.messages");
  }
  const question = "Which lake is the deepest?";
  const result = await pipeline.run({ retriever: { query: question }, prompt_builder: { question } });
  const replies = result.llm?.replies as { text?: string }[] | undefined;
  const answer = replies?.[0]?.text;
  io.write(`answer: ${answer}\n`);
  return { refused, answer };
}

runIfMain(import.meta.url, main);
