import { Agent, type AgentHooks, type HookControl, State } from "@junction/agents";
import { ChatMessage, ScriptedChatGenerator } from "@junction/llm";
import { expectTypeOf, test } from "vitest";
import { z } from "zod";

test("State.get and State.set are typed from the schema", () => {
  const state = new State({
    schema: { documents: { type: z.array(z.string()) }, count: { type: z.number() } },
  });
  expectTypeOf(state.get("documents")).toEqualTypeOf<readonly string[] | undefined>();
  expectTypeOf(state.get("count", 0)).toEqualTypeOf<number>();
  expectTypeOf(state.get("messages")).toEqualTypeOf<readonly ChatMessage[] | undefined>();
  state.set("documents", "one");
  state.set("documents", ["two"]);
  state.set("messages", ChatMessage.fromUser("hi"));
  // @ts-expect-error count is a number
  state.set("count", "three");
  // @ts-expect-error unknown key
  state.set("nope", 1);
});

test("hooks receive the State and a control; the agent's result carries the run metadata", async () => {
  const hooks: AgentHooks = {
    beforeLlm: (state, control) => {
      expectTypeOf(state).toEqualTypeOf<State>();
      expectTypeOf(control).toEqualTypeOf<HookControl>();
      control.stop("done");
    },
    onExit: { run: (_state, control) => control.continueRun() },
  };
  const agent = new Agent({ chatGenerator: new ScriptedChatGenerator({ script: ["hi"] }), hooks });
  const result = await agent.run({ messages: [ChatMessage.fromUser("hi")] });
  expectTypeOf(result.exit_reason).toEqualTypeOf<string | undefined>();
  expectTypeOf(result.messages).toEqualTypeOf<ChatMessage[] | undefined>();
  expectTypeOf(result.step_count).toEqualTypeOf<number | undefined>();
  // @ts-expect-error messages is mandatory
  await agent.run({});
});
