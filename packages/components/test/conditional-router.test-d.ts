import { Agent } from "@junction/agents";
import { ConditionalRouter } from "@junction/components";
import { Pipeline } from "@junction/core";
import { type ChatMessage, chatMessageSchema, ScriptedChatGenerator } from "@junction/llm";
import { expectTypeOf, test } from "vitest";
import { z } from "zod";

test("output sockets are typed by the routes' outputName and outputType", async () => {
  const router = new ConditionalRouter({
    routes: [
      { condition: "size(text) > 3", output: "text", outputName: "long", outputType: z.string() },
      {
        condition: "true",
        output: ["size(text)", "text"],
        outputName: ["length", "short"],
        outputType: [z.number(), z.string()],
      },
    ],
  });
  const result = await router.run({ text: "hello" });
  expectTypeOf(result).toEqualTypeOf<{ long?: string; length?: number; short?: string }>();
  // @ts-expect-error no output "lenght"
  void result.lenght;
});

test("variableTypes type the input sockets; without them any name is accepted", async () => {
  const typed = new ConditionalRouter({
    routes: [
      { condition: 'reason == "text"', output: "reply", outputName: "answer", outputType: chatMessageSchema },
    ],
    variableTypes: { reason: z.string(), reply: chatMessageSchema, note: z.string() },
    optionalVariables: ["note"],
  });
  expectTypeOf<Parameters<typeof typed.run>[0]>().toEqualTypeOf<{
    reason: string;
    reply: ChatMessage;
    note?: string | undefined;
  }>();
  // @ts-expect-error reason is a string
  await typed.run({ reason: 1, reply: {} as ChatMessage });
  const loose = new ConditionalRouter({
    routes: [{ condition: "x > 1", output: "x", outputName: "big", outputType: z.number() }],
  });
  await loose.run({ x: 2, anything: "goes" });
});

test("routing an agent on exit_reason: a wrong wire is a compile error", () => {
  const agent = new Agent({ chatGenerator: new ScriptedChatGenerator({ script: ["hi"] }) });
  const router = new ConditionalRouter({
    routes: [
      {
        condition: 'exit_reason == "text"',
        output: "last_message",
        outputName: "answer",
        outputType: chatMessageSchema,
      },
      { condition: "true", output: "exit_reason", outputName: "gave_up", outputType: z.string() },
    ],
    variableTypes: { exit_reason: z.string(), last_message: chatMessageSchema },
  });
  const builder = Pipeline.builder().add("agent", agent).add("router", router);
  builder
    .connect("agent.exit_reason", "router.exit_reason")
    .connect("agent.last_message", "router.last_message");
  // @ts-expect-error a ChatMessage cannot feed a string input
  builder.connect("agent.last_message", "router.exit_reason");
  // @ts-expect-error the router has no input "exit_reasn"
  builder.connect("agent.exit_reason", "router.exit_reasn");
});

test("ConditionalRouter names every router", () => {
  const routers: ConditionalRouter[] = [
    new ConditionalRouter({
      routes: [{ condition: "true", output: "1", outputName: "one", outputType: z.number() }],
    }),
    new ConditionalRouter({
      routes: [{ condition: "true", output: "x", outputName: "x", outputType: z.string() }],
      variableTypes: { x: z.string() },
    }),
  ];
  expectTypeOf(routers).toEqualTypeOf<ConditionalRouter[]>();
});
