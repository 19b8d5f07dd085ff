import { Agent } from "@junction/agents";
import { type Durable, invokeComponent } from "@junction/core";
import { ChatMessage, tool } from "@junction/llm";
import { expect, test } from "vitest";
import { z } from "zod";
import { callTools, scripted, user } from "./helpers.js";

/** A backend's own promise type (Restate's steps return such a promise, not a native one). */
class JournalPromise<T> extends Promise<T> {}

/**
 * A durable backend as strict as Restate's: `all` joins only promises its own `step` returned,
 * unchanged (Restate's combinators refuse a native promise wrapped around one of theirs).
 */
function strictDurable() {
  const own = new WeakSet<Promise<unknown>>();
  const steps: string[] = [];
  const durable: Durable = {
    step<T>(name: string, run: () => Promise<T>): Promise<T> {
      steps.push(name);
      const promise = JournalPromise.resolve(run()) as Promise<T>;
      own.add(promise);
      return promise;
    },
    all<T>(promises: readonly Promise<T>[]): Promise<T[]> {
      for (const promise of promises) {
        if (!own.has(promise)) throw new TypeError("all() got a promise its step() did not return");
      }
      return Promise.all(promises);
    },
    now: async () => Date.now(),
  };
  return { durable, steps };
}

const lookup = tool({
  name: "lookup",
  description: "Looks a word up",
  parameters: z.object({ word: z.string() }),
  function: async ({ word }) => `${word}: found`,
});

test("an agent's model calls and tool batches reach the durable backend as its own steps", async () => {
  const agent = new Agent({
    chatGenerator: scripted([
      callTools(["lookup", { word: "a" }], ["lookup", { word: "b" }]),
      callTools(["lookup", { word: "c" }]),
      "done",
    ]),
    tools: [lookup],
  });
  const { durable, steps } = strictDurable();
  const result = await invokeComponent(agent, { messages: [user("look up a, b, then c")] }, { durable });
  const messages = result.messages as ChatMessage[];
  expect(
    messages.filter((message) => message.role === "tool").map((message) => message.toolCallResult?.result),
  ).toEqual(["a: found", "b: found", "c: found"]);
  expect(steps).toEqual(["llm#0", "tool#0/call_1_0", "tool#0/call_1_1", "llm#1", "tool#1/call_2_0", "llm#2"]);
  expect(messages.at(-1)).toBeInstanceOf(ChatMessage);
});
