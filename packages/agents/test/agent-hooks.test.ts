import { Agent, type HookControl, type HookObject, type State } from "@junction/agents";
import { ChatMessage, ScriptedChatGenerator, tool } from "@junction/llm";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { callTools, quiet, runAgent, scripted, user } from "./helpers.js";

const save = tool({
  name: "save",
  description: "Save content.",
  parameters: z.object({ content: z.string() }),
  function: ({ content }) => `saved ${content}`,
});
const finalAnswer = tool({
  name: "final_answer",
  description: "Provide the final answer.",
  parameters: z.object({ answer: z.string() }),
  function: ({ answer }) => answer,
});
const trace = { trace: { type: z.array(z.string()) } };
const record = (label: string) => (state: State) => state.set("trace", label);
const stopForBudget = (_state: State, control: HookControl) => control.stop("budget_exceeded");
const writeReport = (state: State) => state.set("messages", ChatMessage.fromAssistant("REPORT"));
const alwaysContinue = (state: State, control: HookControl) => {
  state.set("messages", ChatMessage.fromUser("keep going"));
  control.continueRun();
};

/** A generator that records the conversation it is called with. */
function recording(script: Parameters<typeof scripted>[0], options: { onScriptEnd?: "repeatLast" } = {}) {
  const calls: string[][] = [];
  let position = 0;
  const generator = new ScriptedChatGenerator({
    respond: (messages) => {
      calls.push(messages.map((message) => message.text ?? message.toolCallResult?.result.toString() ?? ""));
      const reply = script[Math.min(position++, script.length - 1)];
      if (position > script.length && options.onScriptEnd !== "repeatLast")
        throw new Error("script exhausted");
      return reply as never;
    },
  });
  return { generator, calls };
}

const saveCall = callTools(["save", { content: "x" }]);

describe("beforeRun / afterRun", () => {
  test("beforeRun runs once per run and sees the tools", async () => {
    const names: string[] = [];
    const { generator, calls } = recording([saveCall, "done"]);
    const agent = new Agent({
      chatGenerator: generator,
      tools: [save],
      stateSchema: trace,
      hooks: {
        beforeRun: [
          (state, control) => {
            names.push(...control.tools.map((t) => t.name));
            state.set("trace", "before_run");
          },
        ],
      },
    });
    const result = await runAgent(agent, { messages: [user("hi")] });
    expect(result.trace).toEqual(["before_run"]);
    expect(names).toEqual(["save"]);
    expect(calls).toHaveLength(2);
  });

  test("beforeRun can rewrite the messages and restore the step count", async () => {
    const { generator, calls } = recording(["done"]);
    const agent = new Agent({
      chatGenerator: generator,
      maxAgentSteps: 10,
      hooks: {
        beforeRun: (state) => {
          state.set("messages", [ChatMessage.fromUser("BRIEF")], (_current, value) => value);
          state.set("step_count", 5);
        },
      },
    });
    const result = await runAgent(agent, { messages: [user("original query")] });
    expect(calls[0]).toEqual(["BRIEF"]);
    expect(result.messages.map((m) => m.text)).toEqual(["BRIEF", "done"]);
    expect(result.step_count).toBe(6);
  });

  test("hooks of one point run in list order; functions and objects alike", async () => {
    const objectHook: HookObject = { name: "b", run: (state) => state.set("trace", "b") };
    const agent = new Agent({
      chatGenerator: scripted(["done"]),
      stateSchema: trace,
      hooks: { beforeLlm: [record("a"), objectHook] },
    });
    expect((await runAgent(agent, { messages: [user("hi")] })).trace).toEqual(["a", "b"]);
  });

  test("afterRun runs once, also when maxAgentSteps is exhausted, and can read the exit reason", async () => {
    const reasons: (string | undefined)[] = [];
    const agent = new Agent({
      chatGenerator: scripted([saveCall], { onScriptEnd: "repeatLast" }),
      tools: [save],
      maxAgentSteps: 2,
      hooks: {
        afterRun: [
          (state, control) => {
            reasons.push(control.exitReason, state.get("exit_reason") as string);
            writeReport(state);
          },
        ],
      },
    });
    const result = await runAgent(agent, { messages: [user("hi")] });
    expect(reasons).toEqual(["max_agent_steps", "max_agent_steps"]);
    expect(result.last_message?.text).toBe("REPORT");
    expect(result.exit_reason).toBe("max_agent_steps");
  });

  test("onExit runs before afterRun; continueRun and stop in afterRun have no effect", async () => {
    const { generator, calls } = recording(["done"], { onScriptEnd: "repeatLast" });
    const agent = new Agent({
      chatGenerator: generator,
      stateSchema: trace,
      hooks: {
        onExit: record("on_exit"),
        afterRun: [
          record("after_run"),
          (_state, control) => {
            control.continueRun();
            control.stop("ignored");
          },
        ],
      },
    });
    const options = quiet();
    const result = await runAgent(agent, { messages: [user("hi")] }, options);
    expect(result.trace).toEqual(["on_exit", "after_run"]);
    expect(result.exit_reason).toBe("text");
    expect(calls).toHaveLength(1);
    expect(options.logger.messages("warn")).toEqual([
      expect.stringMatching(/only has an effect in "onExit"/),
    ]);
  });
});

describe("beforeLlm / beforeTool / afterTool", () => {
  test("beforeLlm runs every step; a step-0-only injection happens once", async () => {
    const agent = new Agent({
      chatGenerator: scripted([saveCall, "done"]),
      tools: [save],
      hooks: {
        beforeLlm: (state, control) => {
          if (control.stepCount === 0) state.set("messages", ChatMessage.fromSystem("INJECTED"));
        },
      },
    });
    const result = await runAgent(agent, { messages: [user("hi")] });
    expect(result.messages.filter((m) => m.text === "INJECTED")).toHaveLength(1);
  });

  test("beforeTool sees the pending calls and does not run on a text-only step", async () => {
    const agent = new Agent({
      chatGenerator: scripted([saveCall, "done"]),
      tools: [save],
      stateSchema: trace,
      hooks: {
        beforeTool: (state) => {
          const last = state.lastItem("messages") as ChatMessage;
          for (const call of last.toolCalls) state.set("trace", call.toolName);
        },
      },
    });
    const result = await runAgent(agent, { messages: [user("hi")] });
    expect(result.trace).toEqual(["save"]);
    expect(result.tool_call_counts.save).toBe(1);
  });

  test("the executor re-reads the pending calls after beforeTool hooks rewrote them", async () => {
    const agent = new Agent({
      chatGenerator: scripted([callTools(["save", { content: "original" }]), "done"]),
      tools: [save],
      hooks: {
        beforeTool: (state) => {
          const messages = state.get("messages") as readonly ChatMessage[];
          const rewritten = [
            ...messages.slice(0, -1),
            ChatMessage.fromAssistant({
              toolCalls: [{ toolName: "save", arguments: { content: "changed" }, id: "c1" }],
            }),
          ];
          state.set("messages", rewritten, (_current, value) => value);
        },
      },
    });
    const result = await runAgent(agent, { messages: [user("hi")] });
    const results = result.messages.filter((m) => m.toolCallResult !== undefined);
    expect(results.map((m) => m.toolCallResult?.origin.arguments)).toEqual([{ content: "changed" }]);
  });

  test("no tool runs when beforeTool leaves a last message without tool calls; afterTool still runs", async () => {
    const fired: string[] = [];
    const { generator, calls } = recording([saveCall, "done"]);
    const agent = new Agent({
      chatGenerator: generator,
      tools: [save],
      hooks: {
        beforeTool: (state) => state.set("messages", ChatMessage.fromAssistant("Skipping tool execution.")),
        afterTool: () => {
          fired.push("after_tool");
        },
      },
    });
    const result = await runAgent(agent, { messages: [user("hi")] });
    expect(calls).toHaveLength(2);
    expect(result.tool_call_counts.save).toBe(0);
    expect(result.messages.map((m) => m.text).slice(-2)).toEqual(["Skipping tool execution.", "done"]);
    expect(fired).toEqual(["after_tool"]);
  });

  test("afterTool can rewrite tool results before the next model call", async () => {
    const { generator, calls } = recording([saveCall, "done"]);
    const agent = new Agent({
      chatGenerator: generator,
      tools: [save],
      hooks: {
        afterTool: (state) => {
          const messages = state.get("messages") as readonly ChatMessage[];
          const rewritten = messages.map((m) =>
            m.toolCallResult === undefined ? m : ChatMessage.fromTool("OFFLOADED", m.toolCallResult.origin),
          );
          state.set("messages", rewritten, (_current, value) => value);
        },
      },
    });
    await runAgent(agent, { messages: [user("hi")] });
    expect(calls[1]).toContain("OFFLOADED");
  });
});

describe("onExit", () => {
  test("continueRun vetoes an exit: a mandatory tool forces extra steps", async () => {
    const agent = new Agent({
      chatGenerator: scripted(["Done", saveCall, "All finished"]),
      tools: [save],
      hooks: {
        onExit: (state, control) => {
          const counts = state.get("tool_call_counts") as Record<string, number>;
          if ((counts.save ?? 0) === 0) {
            state.set("messages", ChatMessage.fromUser("You must call save first."));
            control.continueRun();
          }
        },
      },
    });
    const result = await runAgent(agent, { messages: [user("hi")] });
    expect(result.tool_call_counts.save).toBe(1);
    expect(result.last_message?.text).toBe("All finished");
    expect(result.step_count).toBe(3);
  });

  test("onExit sees the exit reason, also for tool exits", async () => {
    const seen: (string | undefined)[] = [];
    const agent = new Agent({
      chatGenerator: scripted([callTools(["final_answer", { answer: "42" }])]),
      tools: [finalAnswer],
      exitConditions: ["final_answer"],
      hooks: { onExit: (_state, control) => void seen.push(control.exitReason) },
    });
    expect((await runAgent(agent, { messages: [user("q")] })).exit_reason).toBe("final_answer");
    expect(seen).toEqual(["final_answer"]);
  });

  test("maxAgentSteps bounds a hook that always continues", async () => {
    const { generator, calls } = recording(["text"], { onScriptEnd: "repeatLast" });
    const agent = new Agent({
      chatGenerator: generator,
      maxAgentSteps: 3,
      hooks: { onExit: alwaysContinue },
    });
    const result = await runAgent(agent, { messages: [user("hi")] });
    expect(calls).toHaveLength(3);
    expect(result.exit_reason).toBe("max_agent_steps");
  });
});

describe("control.stop", () => {
  test("a stop in beforeLlm skips the model call; later beforeLlm hooks still run", async () => {
    const fired: number[] = [];
    const { generator, calls } = recording([saveCall]);
    const agent = new Agent({
      chatGenerator: generator,
      tools: [save],
      hooks: { beforeLlm: [stopForBudget, () => void fired.push(1)] },
    });
    const result = await runAgent(agent, { messages: [user("hi")] });
    expect(calls).toHaveLength(0);
    expect(fired).toEqual([1]);
    expect(result.step_count).toBe(0);
    expect(result.tool_call_counts.save).toBe(0);
    expect(result.exit_reason).toBe("budget_exceeded");
  });

  test.each(["beforeTool", "afterTool"] as const)("a stop in %s skips the next model call", async (point) => {
    const { generator, calls } = recording([saveCall], { onScriptEnd: "repeatLast" });
    const onExit: string[] = [];
    const agent = new Agent({
      chatGenerator: generator,
      tools: [save],
      hooks: { [point]: stopForBudget, onExit: () => void onExit.push("x"), afterRun: writeReport },
    });
    const result = await runAgent(agent, { messages: [user("hi")] });
    expect(calls).toHaveLength(1);
    expect(result.step_count).toBe(1);
    expect(result.tool_call_counts.save).toBe(1);
    expect(result.exit_reason).toBe("budget_exceeded");
    expect(result.last_message?.text).toBe("REPORT");
    expect(onExit).toEqual([]);
  });

  test.each(["afterTool", "onExit"] as const)(
    "a natural exit in the same step wins over a stop in %s",
    async (point) => {
      const agent = new Agent({
        chatGenerator: scripted([callTools(["final_answer", { answer: "a" }])]),
        tools: [finalAnswer],
        exitConditions: ["final_answer"],
        hooks: { [point]: stopForBudget },
      });
      expect((await runAgent(agent, { messages: [user("q")] })).exit_reason).toBe("final_answer");
    },
  );

  test("the stop reason ends the run when continueRun vetoed the exit", async () => {
    const { generator, calls } = recording([callTools(["final_answer", { answer: "a" }])], {
      onScriptEnd: "repeatLast",
    });
    const agent = new Agent({
      chatGenerator: generator,
      tools: [finalAnswer],
      exitConditions: ["final_answer"],
      hooks: { afterTool: stopForBudget, onExit: alwaysContinue },
    });
    const result = await runAgent(agent, { messages: [user("q")] });
    expect(calls).toHaveLength(1);
    expect(result.exit_reason).toBe("budget_exceeded");
    expect(result.last_message?.text).toBe("keep going");
  });

  test("on the last step max_agent_steps wins over a stop", async () => {
    const agent = new Agent({
      chatGenerator: scripted([saveCall]),
      tools: [save],
      maxAgentSteps: 1,
      hooks: { afterTool: stopForBudget },
    });
    expect((await runAgent(agent, { messages: [user("hi")] })).exit_reason).toBe("max_agent_steps");
  });

  test("the same hook may serve several points", async () => {
    let count = 0;
    const counting = () => {
      count++;
    };
    const agent = new Agent({
      chatGenerator: scripted(["done"]),
      hooks: { beforeLlm: counting, onExit: counting },
    });
    await runAgent(agent, { messages: [user("hi")] });
    expect(count).toBe(2);
  });

  test("a throwing hook fails the run with an AgentRunError", async () => {
    const agent = new Agent({
      chatGenerator: scripted(["done"]),
      hooks: {
        beforeLlm: () => {
          throw new Error("hook broke");
        },
      },
    });
    await expect(runAgent(agent, { messages: [user("hi")] })).rejects.toThrow(/hook broke/);
  });
});
