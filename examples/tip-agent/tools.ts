/**
 * The demo's two tools. Their functions are named exports so a registry can name them: a serialized
 * pipeline refers to `tip_agent.search`, never to code.
 */
import { createRegistry, type Registry } from "@junction/core";
import { tool } from "@junction/llm";
import { z } from "zod";
import { calculate } from "./calculator.js";
import { searchFacts } from "./knowledge-base.js";

/** Looks the query up in the bundled knowledge base. */
export function searchKnowledgeBase({ query }: { query: string }): string {
  const hits = searchFacts(query, 2);
  if (hits.length === 0) return `No facts found for "${query}".`;
  return hits.map((hit) => hit.text).join("\n");
}

/** Evaluates an arithmetic expression safely. */
export function evaluateExpression({ expression }: { expression: string }): {
  expression: string;
  result: number;
} {
  return { expression, result: calculate(expression) };
}

/** The `search` tool: tipping customs and travel facts by country. */
export const search = tool({
  name: "search",
  description: "Searches a knowledge base of tipping customs, currencies and etiquette by country.",
  parameters: z.object({ query: z.string().describe("What to look up, e.g. 'tipping customs France'.") }),
  function: searchKnowledgeBase,
});

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
    .registerFunction("tip_agent.search", searchKnowledgeBase)
    .registerFunction("tip_agent.calculator", evaluateExpression);
  for (const [name, fn] of Object.entries(extra)) registry.registerFunction(name, fn);
  return registry;
}
