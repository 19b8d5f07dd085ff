import { Agent } from "@junction/agents";
import {
  ComponentError,
  defineComponent,
  MemoryLogger,
  setDefaultLogger,
  silentLogger,
} from "@junction/core";
import { chatMessageSchema, tool } from "@junction/llm";
import { afterEach, describe, expect, test } from "vitest";
import { z } from "zod";
import { scripted, weatherTool } from "./helpers.js";

const NoToolsGenerator = defineComponent({
  type: "test.NoToolsGenerator",
  inputs: { messages: z.array(chatMessageSchema) },
  outputs: { replies: z.array(chatMessageSchema) },
  run: () => ({ replies: [] }),
});

function issuesOf(make: () => unknown): string[] {
  try {
    make();
  } catch (error) {
    expect(error).toBeInstanceOf(ComponentError);
    return (error as ComponentError).issues.map(
      (issue) => `${issue.path.slice(1).join(".")}: ${issue.message}`,
    );
  }
  throw new Error("expected the constructor to throw");
}

const reader = tool({
  name: "reader",
  description: "reads",
  parameters: z.object({ docs: z.array(z.string()) }),
  function: () => "ok",
  inputsFromState: { documents: "docs" },
});

afterEach(() => setDefaultLogger(silentLogger));

describe("Agent construction", () => {
  test("defaults", () => {
    const agent = new Agent({ chatGenerator: scripted([]) });
    expect(agent.params.exitConditions).toEqual(["text"]);
    expect(agent.params.maxAgentSteps).toBe(100);
    expect(agent.params.toolConcurrencyLimit).toBeUndefined();
    expect(agent.params.raiseOnToolInvocationFailure).toBe(false);
    expect(agent.params.finalAnswerOnMaxSteps).toBe(false);
  });

  test("the messages input is mandatory; state keys are optional inputs; outputs are sockets", () => {
    const agent = new Agent({
      chatGenerator: scripted([]),
      stateSchema: { documents: { type: z.array(z.string()) } },
    });
    expect(agent.inputSockets.messages?.mandatory).toBe(true);
    expect(agent.inputSockets.documents?.mandatory).toBe(false);
    expect(Object.keys(agent.outputSockets).sort()).toEqual(
      [
        "documents",
        "exit_reason",
        "last_message",
        "messages",
        "step_count",
        "token_usage",
        "tool_call_counts",
      ].sort(),
    );
  });

  test("reports every problem at once, each with its path", () => {
    const issues = issuesOf(
      () =>
        new Agent({
          chatGenerator: new NoToolsGenerator(),
          tools: [weatherTool, reader],
          toolConcurrencyLimit: 0,
          stateSchema: { step_count: { type: z.number() }, tools: { type: z.string() } },
          hooks: { beforeStep: () => {} } as never,
        }),
    );
    expect(issues).toEqual([
      expect.stringMatching(/^chatGenerator: .*has no "tools" input/),
      expect.stringMatching(/^toolConcurrencyLimit: must be at least 1 \(got 0\)/),
      expect.stringMatching(/^stateSchema.step_count: "step_count" is reserved/),
      expect.stringMatching(/^stateSchema.tools: "tools" is reserved/),
      expect.stringMatching(/^hooks.beforeStep: unknown hook point "beforeStep"/),
      expect.stringMatching(
        /^tools.reader.inputsFromState.documents: tool "reader" reads State key "documents", which the stateSchema does not define/,
      ),
    ]);
  });

  test("a generator without a tools input is fine when there are no tools", () => {
    expect(() => new Agent({ chatGenerator: new NoToolsGenerator() })).not.toThrow();
  });

  test("duplicate tool names are rejected", () => {
    expect(
      issuesOf(() => new Agent({ chatGenerator: scripted([]), tools: [weatherTool, weatherTool] })),
    ).toEqual([expect.stringMatching(/^tools: .*duplicate tool names found: "weather_tool"/)]);
  });

  test("hooks must be functions or objects with run", () => {
    expect(
      issuesOf(() => new Agent({ chatGenerator: scripted([]), hooks: { beforeLlm: [42 as never] } })),
    ).toEqual([expect.stringMatching(/^hooks.beforeLlm.0: a hook must be a function/)]);
  });

  test("a user messages key must be a list of ChatMessage", () => {
    expect(
      issuesOf(
        () =>
          new Agent({
            chatGenerator: scripted([]),
            stateSchema: { messages: { type: z.array(z.string()) } },
          }),
      ),
    ).toEqual([expect.stringMatching(/^stateSchema.messages.type: /)]);
  });

  test("template variables may not collide with state keys", () => {
    expect(
      issuesOf(
        () =>
          new Agent({
            chatGenerator: scripted([]),
            userPrompt: "about {{ topic }}",
            stateSchema: { topic: { type: z.string() } },
          }),
      ),
    ).toEqual([expect.stringMatching(/^userPrompt: the template variable "topic" collides/)]);
  });

  test("two tools writing the same replace-handled key is a warning, not an error", () => {
    const logger = new MemoryLogger();
    setDefaultLogger(logger);
    const writer = (name: string) =>
      tool({
        name,
        description: "writes",
        parameters: z.object({}),
        function: () => ({ answer: name }),
        outputsToState: { answer: { source: "answer" } },
      });
    new Agent({
      chatGenerator: scripted([]),
      tools: [writer("a"), writer("b")],
      stateSchema: { answer: { type: z.string() }, list: { type: z.array(z.string()) } },
    });
    expect(logger.messages("warn")).toEqual([
      expect.stringMatching(/tools "a" and "b" all write State key "answer"/),
    ]);
  });

  test("unknown options are rejected", () => {
    expect(issuesOf(() => new Agent({ chatGenerator: scripted([]), maxSteps: 3 } as never))).toEqual([
      expect.stringMatching(/Unrecognized key: "maxSteps"/),
    ]);
  });
});
