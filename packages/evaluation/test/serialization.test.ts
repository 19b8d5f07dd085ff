import { Pipeline } from "@junction/core";
import {
  AnswerExactMatchEvaluator,
  ContextRelevanceEvaluator,
  DocumentRecallEvaluator,
  FaithfulnessEvaluator,
  LLMEvaluator,
} from "@junction/evaluation";
import { ScriptedChatGenerator } from "@junction/llm";
import { describe, expect, test } from "vitest";

describe("evaluators in pipeline documents", () => {
  test("metric evaluators and LLM judges (with their nested chat generator) save and load", async () => {
    const pipeline = new Pipeline()
      .addComponent(
        "recall",
        new DocumentRecallEvaluator({ mode: "multi_hit", documentComparisonField: "meta.file" }),
      )
      .addComponent("exact", new AnswerExactMatchEvaluator())
      .addComponent(
        "faithfulness",
        new FaithfulnessEvaluator({
          chatGenerator: new ScriptedChatGenerator({ script: ['{"statements":[],"statement_scores":[]}'] }),
          maxOutputRetries: 1,
        }),
      )
      .addComponent(
        "judge",
        new LLMEvaluator({
          instructions: "Is it polite?",
          inputs: ["predicted_answers"],
          outputs: ["polite"],
          examples: [],
          chatGenerator: new ScriptedChatGenerator({ script: ['{"polite":true}'] }),
        }),
      )
      .addComponent(
        "relevance",
        new ContextRelevanceEvaluator({ chatGenerator: new ScriptedChatGenerator({ script: [] }) }),
      );
    const document = pipeline.toJSON();
    const components = document.components as Record<
      string,
      { type: string; init_parameters: Record<string, unknown> }
    >;
    expect(components.recall).toEqual({
      type: "junction.DocumentRecallEvaluator",
      init_parameters: { mode: "multi_hit", documentComparisonField: "meta.file" },
    });
    expect(components.faithfulness?.init_parameters.chatGenerator).toMatchObject({
      type: "junction.ScriptedChatGenerator",
    });
    expect(components.faithfulness?.init_parameters.maxOutputRetries).toBe(1);

    const loaded = Pipeline.fromJSON(document);
    expect(loaded.toJSON()).toEqual(document);
    const judge = loaded.getComponent("judge");
    expect(await judge.run({ predicted_answers: ["Thank you!"] })).toMatchObject({
      results: [{ polite: true }],
    });
  });
});
