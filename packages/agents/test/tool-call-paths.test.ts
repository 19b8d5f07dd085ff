import { Agent } from "@junction/agents";
import { ToolInvocationError, tool } from "@junction/llm";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { callTools, quiet, runAgent, scripted, user } from "./helpers.js";

/**
 * A step with one tool call runs without a batch (no promise when the tool answers at once); with an
 * abort signal, a queue or several calls it runs as a batch. Both must give the model the same results.
 */

const bodies = {
  "returns at once": () => "sunny",
  "resolves later": async () => "sunny",
  "throws at once": () => {
    throw new Error("no forecast");
  },
  "rejects later": async () => {
    throw new Error("no forecast");
  },
} as const;

/** The two ways a single call can run: alone (no signal) and as a batch (a signal to race). */
const paths = {
  alone: () => quiet(),
  "in a batch": () => quiet({ signal: new AbortController().signal }),
} as const;

function weather(
  body: () => unknown,
  extra: { outputsToString?: Parameters<typeof tool>[0]["outputsToString"] } = {},
) {
  return tool({
    name: "weather",
    description: "The weather in a city",
    parameters: z.object({ city: z.string() }),
    function: body,
    ...extra,
  });
}

async function toolMessage(agentTool: ReturnType<typeof weather>, options: ReturnType<typeof quiet>) {
  const agent = new Agent({
    chatGenerator: scripted([callTools(["weather", { city: "Rome" }]), "done"]),
    tools: [agentTool],
  });
  const result = await runAgent(agent, { messages: [user("weather?")] }, options);
  return result.messages[2]!.toolCallResult!;
}

describe.each(Object.entries(paths))("one tool call, %s", (_path, options) => {
  test.each(Object.entries(bodies))("a tool that %s gives the model the same result", async (name, body) => {
    const result = await toolMessage(weather(body), options());
    if (name.startsWith("throws") || name.startsWith("rejects")) {
      expect(result.error).toBe(true);
      expect(result.result).toBe('Tool "weather" failed with arguments {"city":"Rome"}. Error: no forecast');
    } else {
      expect(result).toMatchObject({ result: "sunny", error: false });
    }
  });

  test("invalid arguments are the model's to fix, with the schema's complaint", async () => {
    const agent = new Agent({
      chatGenerator: scripted([callTools(["weather", { city: 7 }]), "done"]),
      tools: [weather(() => "sunny")],
    });
    const result = (await runAgent(agent, { messages: [user("weather?")] }, options())).messages[2]!;
    expect(result.toolCallResult?.error).toBe(true);
    expect(result.toolCallResult?.result).toMatch(
      /^Tool "weather": invalid arguments \(1 problem\):\n.*city/,
    );
  });

  test("an outputsToString handler that throws falls back to the plain result, with a warning", async () => {
    const failing = weather(async () => "sunny", {
      outputsToString: {
        handler: () => {
          throw new Error("cannot format");
        },
      },
    });
    const runOptions = options();
    const result = await toolMessage(failing, runOptions);
    expect(result).toMatchObject({ result: "sunny", error: false });
    expect(runOptions.logger.records.map((record) => record.message).join("\n")).toMatch(
      /outputsToString handler failed/,
    );
  });

  test("with raiseOnToolInvocationFailure, a failing outputsToString handler ends the run", async () => {
    const agent = new Agent({
      chatGenerator: scripted([callTools(["weather", { city: "Rome" }]), "done"]),
      tools: [
        weather(async () => "sunny", {
          outputsToString: {
            handler: () => {
              throw new Error("cannot format");
            },
          },
        }),
      ],
      raiseOnToolInvocationFailure: true,
    });
    const failure = await agent.run({ messages: [user("weather?")] }, options()).catch((error) => error);
    expect(String(failure?.message)).toMatch(/its outputsToString handler failed: cannot format/);
  });

  test("with raiseOnToolInvocationFailure, an async failure ends the run with the tool's error", async () => {
    const agent = new Agent({
      chatGenerator: scripted([callTools(["weather", { city: "Rome" }]), "done"]),
      tools: [weather(bodies["rejects later"])],
      raiseOnToolInvocationFailure: true,
    });
    const failure = await agent.run({ messages: [user("weather?")] }, options()).catch((error) => error);
    expect(failure).toBeInstanceOf(Error);
    const cause = failure instanceof ToolInvocationError ? failure : (failure as Error).cause;
    expect(cause).toBeInstanceOf(ToolInvocationError);
    expect((cause as Error).message).toBe(
      'Tool "weather" failed with arguments {"city":"Rome"}. Error: no forecast',
    );
  });
});

test("an abort while the only tool runs ends the run with the signal's reason", async () => {
  const controller = new AbortController();
  const agent = new Agent({
    chatGenerator: scripted([callTools(["weather", { city: "Rome" }]), "done"]),
    tools: [
      weather(async () => {
        controller.abort(new Error("user left"));
        throw new Error("interrupted");
      }),
    ],
  });
  const failure = await agent
    .run({ messages: [user("weather?")] }, quiet({ signal: controller.signal }))
    .catch((error) => error);
  expect(String(failure?.message ?? failure)).toMatch(/user left|abort/i);
});
