/**
 * A served retrieval pipeline: BM25 over the tip agent's knowledge base → a prompt with the documents →
 * a scripted model that answers with the best one. `junction serve examples/serve/search.ts` serves it
 * as "search" (a directory loads only pipeline documents, so a module is named explicitly); the
 * playground (`junction dev examples/serve examples/serve/search.ts`) shows the retrieved documents with
 * their score, content and meta. Being a module (not a YAML document) lets it fill its store in code.
 */
import { ChatPromptBuilder } from "@junction/components";
import { Pipeline } from "@junction/core";
import { InMemoryBM25Retriever } from "@junction/documents";
import { type ChatMessage, ScriptedChatGenerator } from "@junction/llm";
import { createKnowledgeBase } from "../tip-agent/knowledge-base.js";

/** Answers with the first document of the prompt (offline). */
function answerWithBestDocument(messages: readonly ChatMessage[]): string {
  const first = /^- (.+)$/m.exec(messages.at(-1)?.text ?? "");
  return first === null
    ? "Nothing in the knowledge base matches."
    : `According to the knowledge base: ${first[1]}`;
}

const store = await createKnowledgeBase();

const search = new Pipeline({
  metadata: { description: "Searches the travel knowledge base (BM25) and answers." },
})
  .addComponent("retriever", new InMemoryBM25Retriever({ documentStore: store, topK: 3 }))
  .addComponent(
    "prompt",
    new ChatPromptBuilder({
      template:
        '{% message role="user" %}Documents:\n{% for doc in documents %}- {{ doc.content }}\n{% endfor %}Question: {{ question }}{% endmessage %}',
      requiredVariables: ["documents", "question"],
    }),
  )
  .addComponent("llm", new ScriptedChatGenerator({ respond: answerWithBestDocument }))
  .connect("retriever.documents", "prompt.documents")
  .connect("prompt.prompt", "llm.messages")
  .declareIO({
    inputs: { question: ["retriever.query", "prompt.question"] },
    outputs: { documents: "retriever.documents", answer: "llm.replies" },
  });

export default search;
