/**
 * The benchmark workloads built with LangGraph.js's public API.
 */
import { HumanMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { Annotation, END, START, StateGraph } from "@langchain/langgraph";
import { createReactAgent } from "@langchain/langgraph/prebuilt";
import { z } from "zod";
import { sleep } from "../harness.js";
import { ScriptedToolModel } from "./scripted-model.js";

/** W1: `n` nodes in a line, each adds 1. Returns the compiled graph's runner. */
export function langgraphChain(n: number): () => Promise<number> {
  const State = Annotation.Root({ value: Annotation<number>() });
  // The builder's node-name type grows with every node; a loop needs the untyped view.
  const graph = new StateGraph(State) as unknown as {
    addNode(name: string, fn: (state: { value: number }) => { value: number }): void;
    addEdge(from: string, to: string): void;
    compile(): {
      invoke(input: { value: number }, config: { recursionLimit: number }): Promise<{ value: number }>;
    };
  };
  for (let index = 0; index < n; index += 1)
    graph.addNode(`add_${index}`, (state) => ({ value: state.value + 1 }));
  graph.addEdge(START, "add_0");
  for (let index = 1; index < n; index += 1) graph.addEdge(`add_${index - 1}`, `add_${index}`);
  graph.addEdge(`add_${n - 1}`, END);
  const app = graph.compile();
  return async () => (await app.invoke({ value: 0 }, { recursionLimit: n + 10 })).value;
}

/** W2: source → `branches` nodes that each await `delayMs` → one join. */
export function langgraphFanOut(branches: number, delayMs: number): () => Promise<number> {
  const State = Annotation.Root({
    value: Annotation<number>(),
    results: Annotation<number[]>({ reducer: (left, right) => left.concat(right), default: () => [] }),
    total: Annotation<number>(),
  });
  const graph = new StateGraph(State) as unknown as {
    addNode(name: string, fn: (state: { value: number; results: number[] }) => unknown): void;
    addEdge(from: string | string[], to: string): void;
    compile(): { invoke(input: { value: number }): Promise<{ total: number }> };
  };
  graph.addNode("source", (state) => ({ value: state.value }));
  const names: string[] = [];
  for (let index = 0; index < branches; index += 1) {
    const name = `branch_${index}`;
    names.push(name);
    graph.addNode(name, async (state) => {
      await sleep(delayMs);
      return { results: [state.value + index] };
    });
    graph.addEdge("source", name);
  }
  graph.addNode("join", (state) => ({ total: state.results.length }));
  graph.addEdge(START, "source");
  graph.addEdge(names, "join");
  graph.addEdge("join", END);
  const app = graph.compile();
  return async () => (await app.invoke({ value: 1 })).total;
}

/** A ReAct agent that calls `tool_name` `steps` times (`callsPerStep` calls per turn), then answers. */
export function langgraphAgent(options: {
  steps: number;
  callsPerStep: number;
  toolDelayMs: number;
  onToolCall?: () => void;
}): () => Promise<number> {
  const increment = tool(
    async ({ value }: { value: number }) => {
      options.onToolCall?.();
      if (options.toolDelayMs > 0) await sleep(options.toolDelayMs);
      return String(value + 1);
    },
    { name: "increment", description: "Adds one to a number.", schema: z.object({ value: z.number() }) },
  );
  // The script keeps a counter instead of scanning the conversation, so the model itself costs O(1) per
  // turn on both systems and growth measures the framework.
  let turn = 0;
  const model = new ScriptedToolModel(() => {
    turn += 1;
    if (turn > options.steps) return { text: "done" };
    return {
      toolCalls: Array.from({ length: options.callsPerStep }, (_, index) => ({
        name: "increment",
        args: { value: index },
      })),
    };
  });
  const agent = createReactAgent({ llm: model, tools: [increment] });
  return async () => {
    turn = 0;
    const result = await agent.invoke(
      { messages: [new HumanMessage("count")] },
      { recursionLimit: options.steps * 2 + 10 },
    );
    return result.messages.length;
  };
}
