/**
 * The demo's two tools. `search` is an `InMemoryBM25Retriever` over the bundled knowledge base, used as
 * a tool: the documents it finds go into the agent's State key `documents` (merged by id) and the model
 * reads their text. Functions are named exports so a registry can name them: a serialized pipeline
 * refers to `tip_agent.documentsToText`, never to code.
 */
import { createRegistry, type Registry } from "@junction/core";
import {
  type Document,
  documentSchema,
  InMemoryBM25Retriever,
  type InMemoryDocumentStore,
} from "@junction/documents";
import { ComponentTool, tool } from "@junction/llm";
import { z } from "zod";
import { calculate } from "./calculator.js";
import { createKnowledgeBase } from "./knowledge-base.js";

/** What the model reads from a search: each document's text on its own line, best first. */
export function documentsToText(documents: unknown): string {
  const list = documents as readonly Document[];
  if (list.length === 0) return "No facts found.";
  return list.map((document) => document.content ?? "").join("\n");
}

/** Evaluates an arithmetic expression safely. */
export function evaluateExpression({ expression }: { expression: string }): {
  expression: string;
  result: number;
} {
  return { expression, result: calculate(expression) };
}

/**
 * The `search` tool over `store`: BM25 retrieval of the two best facts.
 *
 * @param store - the knowledge base (see `createKnowledgeBase`)
 */
export function createSearchTool(store: InMemoryDocumentStore): ComponentTool {
  return new ComponentTool({
    component: new InMemoryBM25Retriever({ documentStore: store, topK: 2 }),
    name: "search",
    description: "Searches a knowledge base of tipping customs, currencies and etiquette by country.",
    parameters: {
      type: "object",
      properties: {
        query: { type: "string", description: "What to look up, e.g. 'tipping customs France'." },
      },
      required: ["query"],
    },
    outputsToState: { documents: { source: "documents" } },
    outputsToString: { source: "documents", handler: documentsToText },
  });
}

/** The State an agent with the `search` tool needs: the documents it found, merged by id. */
export const tipStateSchema = { documents: { type: z.array(documentSchema) } };

/** The `search` tool over an in-memory copy of the knowledge base (the examples that do not save it). */
export const search = createSearchTool(await createKnowledgeBase());

/** The `calculator` tool: arithmetic with + - * / ( ) and `%` (percent). */
export const calculator = tool({
  name: "calculator",
  description: "Evaluates an arithmetic expression, e.g. '85 * 10%' or '(85 + 4.25) / 2'.",
  parameters: z.object({ expression: z.string().describe("The arithmetic expression to evaluate.") }),
  function: evaluateExpression,
});

/** A registry that knows the demo's functions (tools, the offline model) on top of every built-in. */
export function createDemoRegistry(
  extra: Readonly<Record<string, (...args: any[]) => unknown>> = {},
): Registry {
  const registry = createRegistry()
    .registerFunction("tip_agent.documentsToText", documentsToText)
    .registerFunction("tip_agent.calculator", evaluateExpression);
  for (const [name, fn] of Object.entries(extra)) registry.registerFunction(name, fn);
  return registry;
}
