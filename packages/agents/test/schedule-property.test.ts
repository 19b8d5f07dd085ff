import { Agent, planToolCalls, State } from "@junction/agents";
import { setDefaultLogger, silentLogger } from "@junction/core";
import { type AnyTool, type ToolCall, tool, toolResultToString } from "@junction/llm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { z } from "zod";
import { runAgent, scripted, user } from "./helpers.js";

const keys = ["a", "b", "c"] as const;
type Key = (typeof keys)[number];
const stateSchema = {
  a: { type: z.array(z.string()) },
  b: { type: z.array(z.string()) },
  c: { type: z.string() },
};

interface ToolShape {
  readonly reads: Key[];
  readonly writes: Key[];
  readonly needsState: boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function makeTool(index: number, shape: ToolShape, latencies: readonly number[]): AnyTool {
  const name = `t${index}`;
  const parameters = z.object({
    tag: z.number(),
    in_a: z.unknown().optional(),
    in_b: z.unknown().optional(),
    in_c: z.unknown().optional(),
  });
  return tool({
    name,
    description: `tool ${index}`,
    parameters,
    needsState: shape.needsState,
    inputsFromState: Object.fromEntries(shape.reads.map((key) => [key, `in_${key}`])) as never,
    outputsToState: Object.fromEntries(shape.writes.map((key) => [key, { source: key }])),
    function: async (args, context) => {
      await sleep(latencies[args.tag] ?? 0);
      const seen = shape.reads.map((key) => JSON.stringify(args[`in_${key}`] ?? null)).join("|");
      const label = `${name}#${args.tag}(${seen})`;
      if (shape.needsState && context.state !== undefined) {
        const snapshot = keys.map((key) => JSON.stringify(context.state!.get(key) ?? null)).join("|");
        context.state.set("c", `${label} saw ${snapshot}`);
      }
      return Object.fromEntries(shape.writes.map((key) => [key, key === "c" ? label : [label]]));
    },
  });
}

/** The reference: run the calls one at a time, in plan order, against a State. */
async function runSequentially(
  calls: readonly ToolCall[],
  tools: readonly AnyTool[],
  initial: Record<string, unknown>,
) {
  const state = new State({ schema: stateSchema, data: initial });
  const byName = new Map(tools.map((t) => [t.name, t]));
  const results: string[] = new Array(calls.length);
  for (const index of planToolCalls(calls, tools).flat()) {
    const call = calls[index]!;
    const current = byName.get(call.toolName)!;
    const args: Record<string, unknown> = { ...call.arguments };
    for (const [key, parameter] of Object.entries(current.inputsFromState ?? {})) {
      if (!(parameter in call.arguments) && state.has(key)) args[parameter] = state.get(key as Key);
    }
    const result = (await current.invoke(args, {
      state: current.needsState ? state : undefined,
      toolCall: call,
    })) as Record<string, unknown>;
    for (const [key, entry] of Object.entries(current.outputsToState ?? {})) {
      if (entry.source !== undefined && entry.source in result)
        state.set(key as Key, result[entry.source] as never);
    }
    results[index] = toolResultToString(current, result) as string;
  }
  return { state: { a: state.get("a"), b: state.get("b"), c: state.get("c") }, results };
}

const shapeArbitrary = fc.record({
  reads: fc.subarray([...keys]),
  writes: fc.subarray([...keys]),
  needsState: fc.integer({ min: 0, max: 9 }).map((n) => n < 3),
});

const scenario = fc
  .record({
    shapes: fc.array(shapeArbitrary, { minLength: 1, maxLength: 4 }),
    calls: fc.array(
      fc.record({
        tool: fc.nat(),
        supplies: fc.subarray([...keys], { maxLength: 1 }),
        latency: fc.integer({ min: 0, max: 3 }),
      }),
      { minLength: 1, maxLength: 7 },
    ),
    limit: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
  })
  .map(({ shapes, calls, limit }) => ({
    shapes,
    limit,
    calls: calls.map((call, tag) => ({ ...call, tool: call.tool % shapes.length, tag })),
  }));

describe("tool schedule (property)", () => {
  // Random tools often write the same replace-handled key; the construction warning is expected.
  beforeAll(() => setDefaultLogger(silentLogger));
  afterAll(() => setDefaultLogger(silentLogger));

  test("any plan run concurrently with random latencies equals running the calls one by one in plan order", async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ shapes, calls, limit }) => {
        const latencies = calls.map((call) => call.latency);
        const tools = shapes.map((shape, index) => makeTool(index, shape, latencies));
        const toolCalls: ToolCall[] = calls.map((call) => ({
          toolName: `t${call.tool}`,
          id: `call-${call.tag}`,
          arguments: {
            tag: call.tag,
            ...Object.fromEntries(call.supplies.map((key) => [`in_${key}`, "model"])),
          },
        }));
        const initial = { a: ["a0"], c: "c0" };
        const expected = await runSequentially(toolCalls, tools, initial);
        const agent = new Agent({
          chatGenerator: scripted([{ toolCalls: toolCalls }, "done"]),
          tools,
          stateSchema,
          ...(limit === undefined ? {} : { toolConcurrencyLimit: limit }),
        });
        const result = await runAgent(agent, { messages: [user("go")], ...initial });
        expect({ a: result.a, b: result.b, c: result.c }).toEqual(expected.state);
        const results = result.messages.filter((m) => m.role === "tool").map((m) => m.toolCallResult?.result);
        expect(results).toEqual(expected.results);
      }),
      { numRuns: 60 },
    );
  });
});
