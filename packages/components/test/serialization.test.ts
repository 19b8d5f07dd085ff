import {
  BranchJoiner,
  ChatPromptBuilder,
  ConditionalRouter,
  ListJoiner,
  OutputAdapter,
  PromptBuilder,
  StringJoiner,
} from "@junction/components";
import {
  DeserializationError,
  defaultRegistry,
  deserializeComponent,
  MemoryLogger,
  Pipeline,
} from "@junction/core";
import { ChatMessage, chatMessageSchema } from "@junction/llm";
import { describe, expect, test } from "vitest";
import { z } from "zod";

describe("registration", () => {
  test("every built-in is in the default registry under its junction.* name", () => {
    const classes = {
      "junction.BranchJoiner": BranchJoiner,
      "junction.ChatPromptBuilder": ChatPromptBuilder,
      "junction.ConditionalRouter": ConditionalRouter,
      "junction.ListJoiner": ListJoiner,
      "junction.OutputAdapter": OutputAdapter,
      "junction.PromptBuilder": PromptBuilder,
      "junction.StringJoiner": StringJoiner,
    };
    for (const [type, componentClass] of Object.entries(classes)) {
      expect(defaultRegistry.getComponentClass(type)).toBe(componentClass);
    }
  });
});

describe("documents", () => {
  test("a pipeline of built-ins survives toJSON → JSON text → fromJSON, and toJSON(fromJSON(doc)) equals doc", async () => {
    const pipeline = new Pipeline({ logger: new MemoryLogger() })
      .addComponent(
        "prompt",
        new ChatPromptBuilder({ template: [ChatMessage.fromUser("Classify: {{ text }}")] }),
      )
      .addComponent(
        "router",
        new ConditionalRouter({
          routes: [
            {
              condition: 'prompt[0].text.contains("urgent")',
              output: "prompt",
              outputName: "urgent",
              outputType: z.array(chatMessageSchema),
            },
            {
              condition: "true",
              output: "prompt",
              outputName: "normal",
              outputType: z.array(chatMessageSchema),
            },
          ],
        }),
      )
      .addComponent("joiner", new BranchJoiner({ type: z.array(chatMessageSchema) }))
      .addComponent(
        "count",
        new OutputAdapter({ expression: "size(messages[0].text)", outputType: z.number() }),
      );
    pipeline.connect("prompt.prompt", "router.prompt");
    pipeline.connect("router.urgent", "joiner.value");
    pipeline.connect("router.normal", "joiner.value");
    pipeline.connect("joiner.value", "count.messages");

    const doc = JSON.parse(JSON.stringify(pipeline.toJSON())) as Record<string, unknown>;
    const loaded = Pipeline.fromJSON(doc);
    expect(JSON.parse(JSON.stringify(loaded.toJSON()))).toEqual(doc);
    const inputs = { prompt: { text: "urgent: the server is down" } };
    expect(await loaded.run(inputs)).toEqual(await pipeline.run(inputs));
    expect(await loaded.run(inputs)).toEqual({
      count: { output: "Classify: urgent: the server is down".length },
    });
  });

  test("invalid documents report every problem with its path", () => {
    const load = (doc: unknown) => {
      try {
        deserializeComponent(doc);
      } catch (error) {
        return error as DeserializationError;
      }
      throw new Error("expected the document to be rejected");
    };
    const router = load({
      type: "junction.ConditionalRouter",
      init_parameters: {
        routes: [
          { condition: "size(x) >", output: "x", outputName: "a", outputType: {} },
          { condition: "true", output: "y +", outputName: "b", outputType: { type: "string" } },
        ],
      },
    });
    expect(router).toBeInstanceOf(DeserializationError);
    expect(router.message).toContain("route 0");
    expect(router.message).toContain("route 1");
    const builder = load({
      type: "junction.ChatPromptBuilder",
      init_parameters: { template: [{ role: "robot", content: [] }], requiredVariables: "*" },
    });
    expect(builder).toBeInstanceOf(DeserializationError);
    expect(builder.issues.map((issue) => issue.path.join("."))).toContainEqual(
      expect.stringContaining("template.0"),
    );
  });
});
