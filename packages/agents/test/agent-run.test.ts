import { Agent, AgentRunError } from "@junction/agents";
import { type AnyTool, type ChatMessage, ScriptedChatGenerator, Toolset } from "@junction/llm";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import {
  callTools,
  faultyTool,
  parrotTool,
  quiet,
  runAgent,
  scripted,
  user,
  weatherTool,
} from "./helpers.js";

describe("Agent run", () => {
  test("with no tools the first reply ends the run with exit reason text", async () => {
    const agent = new Agent({ chatGenerator: scripted(["Hello there"]) });
    const result = await runAgent(agent, { messages: [user("Hi")] });
    expect(result.exit_reason).toBe("text");
    expect(result.step_count).toBe(1);
    expect(result.messages.map((message) => message.text)).toEqual(["Hi", "Hello there"]);
    expect(result.last_message).toBe(result.messages[1]);
  });

  test("a tool call, then a text answer", async () => {
    const agent = new Agent({
      chatGenerator: scripted([callTools(["weather_tool", { location: "Berlin" }]), "It is mostly sunny."]),
      tools: [weatherTool],
    });
    const result = await runAgent(agent, { messages: [user("Weather in Berlin?")] });
    expect(result.exit_reason).toBe("text");
    expect(result.step_count).toBe(2);
    expect(result.messages.map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "tool",
      "assistant",
    ]);
    expect(result.messages[2]?.toolCallResult?.result).toBe(
      '{"weather":"mostly sunny","temperature":7,"unit":"celsius"}',
    );
    expect(result.tool_call_counts).toEqual({ weather_tool: 1 });
  });

  test("an exit-condition tool ends the run with its name; last_message is its result", async () => {
    const agent = new Agent({
      chatGenerator: scripted([callTools(["weather_tool", { location: "Berlin" }])]),
      tools: [weatherTool],
      exitConditions: ["weather_tool"],
    });
    const result = await runAgent(agent, { messages: [user("Hello")] });
    expect(result.exit_reason).toBe("weather_tool");
    expect(result.messages).toHaveLength(3);
    expect(result.last_message?.toolCallResult?.origin.toolName).toBe("weather_tool");
  });

  test("the first exit-condition tool called is reported", async () => {
    const agent = new Agent({
      chatGenerator: scripted([
        callTools(["parrot", { parrot: "hi" }], ["weather_tool", { location: "Berlin" }]),
      ]),
      tools: [weatherTool, parrotTool],
      exitConditions: ["weather_tool", "parrot"],
    });
    expect((await runAgent(agent, { messages: [user("Go")] })).exit_reason).toBe("parrot");
  });

  test("an errored exit-condition tool cancels the exit, even if another exit tool succeeded", async () => {
    const agent = new Agent({
      chatGenerator: scripted([
        callTools(["weather_tool", { location: "B" }], ["faulty_tool", { location: "B" }]),
        "done",
      ]),
      tools: [weatherTool, faultyTool],
      exitConditions: ["weather_tool", "faulty_tool"],
    });
    const result = await runAgent(agent, { messages: [user("Go")] });
    expect(result.exit_reason).toBe("text");
    expect(result.step_count).toBe(2);
  });

  test("an error in a non-exit tool does not prevent the exit", async () => {
    const agent = new Agent({
      chatGenerator: scripted([
        callTools(["weather_tool", { location: "B" }], ["faulty_tool", { location: "B" }]),
      ]),
      tools: [weatherTool, faultyTool],
      exitConditions: ["weather_tool"],
    });
    expect((await runAgent(agent, { messages: [user("Go")] })).exit_reason).toBe("weather_tool");
  });

  test("an empty assistant reply is not an exit; the agent retries", async () => {
    const agent = new Agent({ chatGenerator: scripted(["", "The weather is sunny."]), tools: [weatherTool] });
    const result = await runAgent(agent, { messages: [user("Weather?")] });
    expect(result.step_count).toBe(2);
    expect(result.last_message?.text).toBe("The weather is sunny.");
  });

  test("length and content_filter finish reasons end the run with that reason", async () => {
    for (const finishReason of ["length", "content_filter"] as const) {
      const agent = new Agent({
        chatGenerator: scripted([{ text: "", finishReason }]),
        tools: [weatherTool],
      });
      const result = await runAgent(agent, { messages: [user("Go")] });
      expect(result.exit_reason).toBe(finishReason);
      expect(result.step_count).toBe(1);
    }
  });

  test("maxAgentSteps ends the loop with max_agent_steps and a warning", async () => {
    const options = quiet();
    const agent = new Agent({
      chatGenerator: scripted([callTools(["weather_tool", { location: "Berlin" }])], {
        onScriptEnd: "repeatLast",
      }),
      tools: [weatherTool],
      maxAgentSteps: 2,
    });
    const result = await runAgent(agent, { messages: [user("Weather?")] }, options);
    expect(result.exit_reason).toBe("max_agent_steps");
    expect(result.step_count).toBe(2);
    expect(result.last_message?.role).toBe("tool");
    expect(options.logger.messages("warn").join()).toMatch(/maximum agent steps \(2\)/);
  });

  test("finalAnswerOnMaxSteps makes one last model call without tools", async () => {
    const offered: number[] = [];
    const generator = new ScriptedChatGenerator({
      respond: (_messages, context) => {
        offered.push(context.tools.length);
        return context.tools.length === 0 ? "Final answer." : callTools(["weather_tool", { location: "B" }]);
      },
    });
    const agent = new Agent({
      chatGenerator: generator,
      tools: [weatherTool],
      maxAgentSteps: 2,
      finalAnswerOnMaxSteps: true,
    });
    const result = await runAgent(agent, { messages: [user("Weather?")] });
    expect(offered).toEqual([1, 1, 0]);
    expect(result.exit_reason).toBe("max_agent_steps");
    expect(result.last_message?.text).toBe("Final answer.");
    expect(result.step_count).toBe(3);
  });

  test("token usage is summed over every model call; tool_call_counts count every result", async () => {
    const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
    const agent = new Agent({
      chatGenerator: scripted([
        { ...callTools(["weather_tool", { location: "A" }], ["weather_tool", { location: "B" }]), usage },
        { text: "done", usage },
      ]),
      tools: [weatherTool, parrotTool],
    });
    const result = await runAgent(agent, { messages: [user("Go")] });
    expect(result.token_usage).toEqual({ prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 });
    expect(result.tool_call_counts).toEqual({ weather_tool: 2, parrot: 0 });
  });

  test("metadata outputs show defaults when nothing happened", async () => {
    const agent = new Agent({ chatGenerator: scripted(["Hi"]), tools: [weatherTool] });
    const result = await runAgent(agent, { messages: [user("Hi")] });
    expect(result.token_usage).toEqual({ prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 });
    expect(result.tool_call_counts).toEqual({ weather_tool: 0 });
  });

  test("system and user prompts are rendered with template variables", async () => {
    const agent = new Agent({
      chatGenerator: scripted(["ok"]),
      systemPrompt: "You answer questions about {{ topic }}.",
      userPrompt: "Tell me about {{ topic }} in {{ city.name }}.",
    });
    expect(Object.keys(agent.inputSockets)).toEqual(
      expect.arrayContaining([
        "messages",
        "topic",
        "city",
        "streaming_callback",
        "generation_kwargs",
        "tools",
      ]),
    );
    const result = await runAgent(agent, {
      messages: [user("first")],
      topic: "bees",
      city: { name: "Paris" },
    });
    expect(result.messages.map((message) => [message.role, message.text])).toEqual([
      ["system", "You answer questions about bees."],
      ["user", "first"],
      ["user", "Tell me about bees in Paris."],
      ["assistant", "ok"],
    ]);
  });

  test("state keys are inputs and outputs; tools write them through outputsToState", async () => {
    const { tool } = await import("@junction/llm");
    const search = tool({
      name: "search",
      description: "Finds documents",
      parameters: z.object({ query: z.string() }),
      function: ({ query }) => ({ documents: [`doc about ${query}`] }),
      outputsToState: { documents: { source: "documents" } },
    });
    const agent = new Agent({
      chatGenerator: scripted([callTools(["search", { query: "bees" }]), "done"]),
      tools: [search],
      stateSchema: { documents: { type: z.array(z.string()) }, topic: { type: z.string() } },
    });
    expect(agent.inputSockets.documents?.mandatory).toBe(false);
    expect(Object.keys(agent.outputSockets)).toEqual(expect.arrayContaining(["documents", "topic"]));
    const result = await runAgent(agent, { messages: [user("Go")], documents: ["seed"], topic: "bees" });
    expect(result.documents).toEqual(["seed", "doc about bees"]);
    expect(result.topic).toBe("bees");
  });

  test("the tools input selects a subset by name; unknown names are rejected", async () => {
    const seen: string[][] = [];
    const generator = new ScriptedChatGenerator({
      respond: (_messages, context) => {
        seen.push(context.tools.map((tool) => tool.name));
        return "ok";
      },
    });
    const agent = new Agent({ chatGenerator: generator, tools: [weatherTool, parrotTool] });
    await runAgent(agent, { messages: [user("Go")], tools: ["parrot"] });
    expect(seen).toEqual([["parrot"]]);
    await expect(agent.run({ messages: [user("Go")], tools: ["nope"] }, quiet())).rejects.toThrow(/"nope"/);
  });

  test("dynamic toolsets are re-read every step", async () => {
    const available: AnyTool[] = [weatherTool];
    const seen: string[][] = [];
    const generator = new ScriptedChatGenerator({
      respond: (_messages, context) => {
        seen.push(context.tools.map((tool) => tool.name));
        if (context.call === 1) {
          available.push(parrotTool);
          return callTools(["weather_tool", { location: "x" }]);
        }
        return "done";
      },
    });
    const agent = new Agent({ chatGenerator: generator, tools: new Toolset(() => available) });
    await runAgent(agent, { messages: [user("Go")] });
    expect(seen).toEqual([["weather_tool"], ["weather_tool", "parrot"]]);
  });

  test("a tool error becomes an error tool result the model sees", async () => {
    const agent = new Agent({
      chatGenerator: scripted([callTools(["faulty_tool", { location: "x" }], ["missing_tool"]), "sorry"]),
      tools: [faultyTool],
    });
    const result = await runAgent(agent, { messages: [user("Go")] });
    const results = result.messages
      .filter((message) => message.role === "tool")
      .map((m) => m.toolCallResult!);
    expect(results.map((r) => [r.origin.toolName, r.error])).toEqual([
      ["faulty_tool", true],
      ["missing_tool", true],
    ]);
    expect(results[0]?.result).toMatch(/Could not get weather/);
    expect(results[1]?.result).toMatch(/Tool "missing_tool" not found. Available tools: "faulty_tool"/);
  });

  test("invalid arguments become an error tool result", async () => {
    const agent = new Agent({
      chatGenerator: scripted([callTools(["weather_tool", { location: 3 }]), "sorry"]),
      tools: [weatherTool],
    });
    const result = await runAgent(agent, { messages: [user("Go")] });
    expect(result.messages[2]?.toolCallResult?.error).toBe(true);
    expect(result.messages[2]?.toolCallResult?.result).toMatch(/invalid arguments/);
  });

  test("raiseOnToolInvocationFailure makes a tool error fail the run, carrying the messages so far", async () => {
    const agent = new Agent({
      chatGenerator: scripted([callTools(["faulty_tool", { location: "x" }])]),
      tools: [faultyTool],
      raiseOnToolInvocationFailure: true,
    });
    const error = await runAgent(agent, { messages: [user("Go")] }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AgentRunError);
    expect((error as AgentRunError).code).toBe("AGENT_RUN_ERROR");
    expect((error as AgentRunError).messages).toHaveLength(2);
    expect(((error as AgentRunError).cause as Error).message).toMatch(/Could not get weather/);
  });

  test("a failing state merge fails the run even without raiseOnToolInvocationFailure", async () => {
    const { tool } = await import("@junction/llm");
    const bad = tool({
      name: "bad",
      description: "writes a string into a number key",
      parameters: z.object({}),
      function: () => ({ count: "many" }),
      outputsToState: { count: { source: "count" } },
    });
    const agent = new Agent({
      chatGenerator: scripted([callTools(["bad"])]),
      tools: [bad],
      stateSchema: { count: { type: z.number() } },
    });
    await expect(agent.run({ messages: [user("Go")] }, quiet())).rejects.toThrow(/State key "count"/);
  });

  test("the generator receives generation_kwargs", async () => {
    let kwargs: unknown;
    const generator = new ScriptedChatGenerator({
      respond: (_messages, context) => {
        kwargs = context.generationKwargs;
        return "ok";
      },
    });
    const agent = new Agent({ chatGenerator: generator });
    await runAgent(agent, { messages: [user("Go")], generation_kwargs: { temperature: 0 } });
    expect(kwargs).toEqual({ temperature: 0 });
  });

  test("a model failure rejects with an AgentRunError carrying the conversation", async () => {
    const agent = new Agent({
      chatGenerator: scripted([callTools(["weather_tool", { location: "x" }])]),
      tools: [weatherTool],
    });
    const error = (await runAgent(agent, { messages: [user("Go")] }).catch(
      (caught: unknown) => caught,
    )) as AgentRunError;
    expect(error).toBeInstanceOf(AgentRunError);
    expect(error.stepCount).toBe(1);
    expect(error.messages.map((message) => (message as ChatMessage).role)).toEqual([
      "user",
      "assistant",
      "tool",
    ]);
    expect(error.message).toMatch(/step 2 failed/);
  });
});
