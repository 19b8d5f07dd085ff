import {
  Agent,
  type AgentHooks,
  type AgentResult,
  type BuiltInExitReason,
  type HookControl,
  State,
  type TemplateVariables,
} from "@junction/agents";
import { ChatMessage, MemoryConversationStore, ScriptedChatGenerator } from "@junction/llm";
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
  // a hook may stop the run with any reason, so exit_reason is open (the known reasons still autocomplete)
  expectTypeOf(result.exit_reason).toEqualTypeOf<BuiltInExitReason | (string & {})>();
  expectTypeOf(result.messages).toEqualTypeOf<ChatMessage[]>();
  expectTypeOf(result.step_count).toEqualTypeOf<number>();
  expectTypeOf(result.last_message).toEqualTypeOf<ChatMessage | undefined>();
  // @ts-expect-error messages is mandatory
  await agent.run({});
});

const generator = new ScriptedChatGenerator({ script: ["hi"] });
const doc = z.object({ id: z.string(), score: z.number() });

test("the result's run metadata is always present and exit_reason is a closed union without hooks", async () => {
  const agent = new Agent({ chatGenerator: generator, exitConditions: ["text", "final_answer"] });
  const result = await agent.run({ messages: [] });
  expectTypeOf(result.exit_reason).toEqualTypeOf<
    "text" | "max_agent_steps" | "length" | "content_filter" | "final_answer"
  >();
  expectTypeOf(result.token_usage).toEqualTypeOf<Record<string, unknown>>();
  expectTypeOf(result.tool_call_counts).toEqualTypeOf<Record<string, number>>();
  // @ts-expect-error not a reason this agent can report
  const misspelled: typeof result.exit_reason = "final_anwser";
  void misspelled;
  const plain = await new Agent({ chatGenerator: generator }).run({ messages: [] });
  expectTypeOf(plain.exit_reason).toEqualTypeOf<BuiltInExitReason>();
});

test("State keys become typed optional inputs and optional outputs", async () => {
  const agent = new Agent({
    chatGenerator: generator,
    stateSchema: { documents: { type: z.array(doc) }, topic: { type: z.string() } },
  });
  const result = await agent.run({ messages: [], topic: "tides" });
  expectTypeOf(result.documents).toEqualTypeOf<{ id: string; score: number }[] | undefined>();
  expectTypeOf(result.topic).toEqualTypeOf<string | undefined>();
  // @ts-expect-error topic is a string
  await agent.run({ messages: [], topic: 3 });
  // @ts-expect-error no State key "topc"
  await agent.run({ messages: [], topc: "tides" });
  // @ts-expect-error no output "documnets"
  void result.documnets;
  expectTypeOf<
    keyof AgentResult<{ chatGenerator: typeof generator; stateSchema: { n: { type: z.ZodNumber } } }>
  >().toEqualTypeOf<
    "messages" | "exit_reason" | "step_count" | "token_usage" | "tool_call_counts" | "last_message" | "n"
  >();
});

test("{{ variables }} of literal prompts are mandatory inputs", async () => {
  const agent = new Agent({
    chatGenerator: generator,
    systemPrompt: "You answer questions about {{ topic }} for {{user.name}}.",
  });
  await agent.run({ messages: [], topic: "tides", user: { name: "Ada" } });
  // @ts-expect-error "user" is missing
  await agent.run({ messages: [], topic: "tides" });
  expectTypeOf<TemplateVariables<"Hi {{ a }}, {{b.c}} and {{ a }}">>().toEqualTypeOf<"a" | "b">();
  expectTypeOf<TemplateVariables<string>>().toEqualTypeOf<string>();
});

test("misspelled options are compile errors", () => {
  // @ts-expect-error maxAgentStep is not an option
  new Agent({ chatGenerator: generator, maxAgentStep: 3 });
});

test("Agent names the instance type: one function accepts every agent", async () => {
  function describe(agent: Agent): string {
    return agent.type;
  }
  const typed = new Agent({
    chatGenerator: generator,
    exitConditions: ["done"],
    stateSchema: { n: { type: z.number() } },
  });
  describe(typed);
  describe(new Agent({ chatGenerator: generator }));
  const agents: Agent[] = [typed, new Agent({ chatGenerator: generator, hooks: {} })];
  expectTypeOf(agents).toEqualTypeOf<Agent[]>();
  const loose: Agent = typed;
  const result = await loose.run({ messages: [] });
  expectTypeOf(result.exit_reason).toEqualTypeOf<string>();
  expectTypeOf(result.messages).toEqualTypeOf<ChatMessage[]>();
});

test("a conversation adds the conversation_id input; without one there is none", async () => {
  const chatGenerator = new ScriptedChatGenerator({ script: ["hi"] });
  const withMemory = new Agent({ chatGenerator, conversation: { store: new MemoryConversationStore() } });
  await withMemory.run({ messages: [], conversation_id: "chat-1" });
  const plain = new Agent({ chatGenerator });
  // @ts-expect-error only an Agent with a conversation takes conversation_id
  await plain.run({ messages: [], conversation_id: "chat-1" });
});
