import { Agent, type State } from "@junction/agents";
import { tool } from "@junction/llm";
import { expect, test } from "vitest";
import { z } from "zod";
import { callTools, runAgent, scripted, user } from "./helpers.js";

/**
 * `tool_call_counts` is a State value: one read during the run never changes afterwards (later steps
 * write a new record). A run nobody can read State in (no hooks, no tool that gets the State) updates
 * its own record in place instead — what it returns is the same either way.
 */

const ping = tool({
  name: "ping",
  description: "Answers pong.",
  parameters: z.object({}),
  function: () => "pong",
});

const threePings = () => scripted([callTools(["ping"]), callTools(["ping"]), callTools(["ping"]), "done"]);

test("a record read by a hook keeps the counts it had when read", async () => {
  const seen: Record<string, number>[] = [];
  const agent = new Agent({
    chatGenerator: threePings(),
    tools: [ping],
    hooks: {
      afterTool: (state: State) => {
        seen.push(state.get("tool_call_counts") as Record<string, number>);
      },
    },
  });
  const result = await runAgent(agent, { messages: [user("ping thrice")] });
  expect(seen.map((counts) => counts.ping)).toEqual([1, 2, 3]);
  expect(result.tool_call_counts).toEqual({ ping: 3 });
});

test("a record read by a tool that gets the State keeps the counts it had when read", async () => {
  const seen: Record<string, number>[] = [];
  const watcher = tool({
    name: "watch",
    description: "Reads the counts.",
    parameters: z.object({}),
    needsState: true,
    function: (_args, { state }) => {
      seen.push(state?.get("tool_call_counts") as Record<string, number>);
      return "ok";
    },
  });
  const agent = new Agent({
    chatGenerator: scripted([callTools(["watch"]), callTools(["watch"]), "done"]),
    tools: [watcher],
  });
  await runAgent(agent, { messages: [user("watch twice")] });
  expect(seen.map((counts) => counts.watch)).toEqual([0, 1]);
});

test("without readers the run returns the same counts, and runs do not share a record", async () => {
  const agent = new Agent({ chatGenerator: threePings(), tools: [ping] });
  const first = await runAgent(agent, { messages: [user("ping thrice")] });
  expect(first.tool_call_counts).toEqual({ ping: 3 });
  const again = new Agent({ chatGenerator: threePings(), tools: [ping] });
  const second = await runAgent(again, { messages: [user("ping thrice")] });
  expect(second.tool_call_counts).toEqual({ ping: 3 });
  expect(first.tool_call_counts).toEqual({ ping: 3 });
  expect(first.tool_call_counts).not.toBe(second.tool_call_counts);
});
