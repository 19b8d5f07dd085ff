import { ConditionalRouter } from "@junction/components";
import { ComponentError, defineComponent, Pipeline, PipelineConnectError } from "@junction/core";
import { ChatMessage, chatMessageSchema } from "@junction/llm";
import { expect, test } from "vitest";
import { z } from "zod";
import { roundTrip } from "./support/round-trip.js";

const routes = [
  {
    condition: 'exit_reason == "text"',
    output: "last_message",
    outputName: "answer",
    outputType: chatMessageSchema,
  },
  { condition: "true", output: "exit_reason", outputName: "gave_up", outputType: z.string() },
];

function constructionError(action: () => unknown): ComponentError {
  try {
    action();
  } catch (error) {
    if (error instanceof ComponentError) return error;
    throw error;
  }
  throw new Error("expected a ComponentError");
}

test("variableTypes type the input sockets, so a wrong wire is refused by connect", () => {
  const router = new ConditionalRouter({
    routes,
    variableTypes: { exit_reason: z.string(), last_message: chatMessageSchema },
  });
  const Counter = defineComponent({
    type: "test.routerTypes.Counter",
    inputs: {},
    outputs: { count: z.number(), label: z.string() },
    run: () => ({}),
  });
  const pipeline = new Pipeline().addComponent("source", new Counter()).addComponent("router", router);
  expect(() => pipeline.connect("source.count", "router.exit_reason")).toThrow(PipelineConnectError);
  pipeline.connect("source.label", "router.exit_reason");
});

test("a variable the routes use but variableTypes omits is named, with the closest declared name", () => {
  const error = constructionError(
    () =>
      new ConditionalRouter({
        routes,
        variableTypes: { exit_reasn: z.string(), last_message: chatMessageSchema },
      }),
  );
  expect(error.message).toContain(
    'the routes use the variable "exit_reason", which variableTypes does not declare. Did you mean "exit_reasn"?',
  );
  expect(error.message).toContain(
    'variableTypes declares "exit_reasn", which no route uses. Did you mean "exit_reason"?',
  );
});

test("variableTypes survive a document round trip as JSON Schema", async () => {
  const router = new ConditionalRouter({
    routes,
    variableTypes: { exit_reason: z.string(), last_message: chatMessageSchema },
  });
  const { initParameters, copy } = roundTrip(router);
  expect(initParameters.variableTypes).toMatchObject({ exit_reason: { type: "string" } });
  expect(Object.keys(copy.inputSockets)).toEqual(["exit_reason", "last_message"]);
  await expect(
    copy.run({ exit_reason: "max_agent_steps", last_message: ChatMessage.fromAssistant("?") }),
  ).resolves.toEqual({
    gave_up: "max_agent_steps",
  });
});
