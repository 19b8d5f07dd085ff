import {
  ContextRelevanceEvaluator,
  EvaluationInputError,
  FaithfulnessEvaluator,
  LLMEvaluator,
} from "@junction/evaluation";
import { type ChatMessage, ScriptedChatGenerator } from "@junction/llm";
import { OpenAIChatGenerator } from "@junction/openai";
import { afterEach, describe, expect, test, vi } from "vitest";
import {
  completion,
  type FakeOpenAIServer,
  startFakeOpenAIServer,
} from "../../openai/test/support/fake-openai-server.js";

const json = (value: unknown) => JSON.stringify(value);

/** A scripted judge that answers from the question found in the prompt (order-free, so concurrency-safe). */
function judgeByQuestion(answers: Record<string, string>) {
  const prompts: string[] = [];
  const generator = new ScriptedChatGenerator({
    respond: (messages: readonly ChatMessage[]) => {
      const prompt = messages[0]?.text ?? "";
      prompts.push(prompt);
      const inputs = prompt.slice(prompt.lastIndexOf("Inputs:\n") + 8, prompt.lastIndexOf("\nOutputs:"));
      const question = (JSON.parse(inputs) as { questions: string }).questions;
      const answer = answers[question];
      if (answer === undefined) throw new Error(`no scripted answer for ${question}`);
      return answer;
    },
  });
  return { generator, prompts };
}

describe("FaithfulnessEvaluator (scripted model)", () => {
  test("mean of statement scores per answer; an answer that stays invalid is NaN, left out and counted", async () => {
    const { generator, prompts } = judgeByQuestion({
      "Who created Python?": json({
        statements: ["Python is a programming language.", "Python was created by George Lucas."],
        statement_scores: [1, 0],
      }),
      "Is Berlin in Germany?": json({ statements: ["Berlin is in Germany."], statement_scores: [1] }),
      "What is this?": "I cannot answer in JSON, sorry.",
      "Say nothing": json({ statements: [], statement_scores: [] }),
    });
    const evaluator = new FaithfulnessEvaluator({ chatGenerator: generator, maxOutputRetries: 1 });
    const result = await evaluator.run({
      questions: ["Who created Python?", "Is Berlin in Germany?", "What is this?", "Say nothing"],
      contexts: [
        ["Python was created by Guido van Rossum."],
        ["Berlin is the capital of Germany."],
        ["x"],
        ["y"],
      ],
      predicted_answers: ["A language by George Lucas.", "Yes.", "?", ""],
    });
    expect(result.individual_scores?.slice(0, 2)).toEqual([0.5, 1]);
    expect(Number.isNaN(result.individual_scores?.[2])).toBe(true);
    expect(result.individual_scores?.[3]).toBe(0);
    expect(result.score).toBeCloseTo((0.5 + 1 + 0) / 3, 12);
    expect(result.meta).toMatchObject({ evaluated: 3, invalid: 1, failed: 0 });
    expect(result.results?.[2]).toMatchObject({ statements: [], status: "error" });
    expect(result.results?.[0]).toMatchObject({ status: "evaluated", score: 0.5 });
    // The invalid answer was retried once with the problem told to the model: 4 questions + 1 retry.
    expect(prompts.length).toBe(5);
    // The prompt carries the instructions, the output keys, the default examples and the row's inputs.
    const prompt = prompts[0] as string;
    expect(prompt).toContain('["statements", "statement_scores"]');
    expect(prompt).toContain("Rome has more than 4 million inhabitants.");
    expect(prompt).toContain('"predicted_answers": "A language by George Lucas."');
  });

  test("statement_scores of another length than statements is a schema violation (repaired, else NaN)", async () => {
    const { generator } = judgeByQuestion({
      q: json({ statements: ["a", "b"], statement_scores: [1] }),
    });
    const result = await new FaithfulnessEvaluator({ chatGenerator: generator, maxOutputRetries: 0 }).run({
      questions: ["q"],
      contexts: [["c"]],
      predicted_answers: ["a"],
    });
    expect(Number.isNaN(result.score)).toBe(true);
    expect(result.meta?.invalid).toBe(1);
  });

  test("inputs of different lengths are an error naming the socket", async () => {
    const evaluator = new FaithfulnessEvaluator({ chatGenerator: new ScriptedChatGenerator({ script: [] }) });
    const error = await evaluator
      .run({ questions: ["a", "b"], contexts: [["c"]], predicted_answers: ["a", "b"] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(EvaluationInputError);
    expect((error as Error).message).toMatch(/"questions" has 2 rows but "contexts" has 1/);
  });
});

describe("ContextRelevanceEvaluator (scripted model)", () => {
  test("1 when any relevant statement is found, 0 when none; the mean over valid judgments", async () => {
    const { generator } = judgeByQuestion({
      "Who created Python?": json({ relevant_statements: ["Python was created by Guido van Rossum."] }),
      "Why does Java need a JVM?": json({ relevant_statements: [] }),
    });
    const result = await new ContextRelevanceEvaluator({ chatGenerator: generator }).run({
      questions: ["Who created Python?", "Why does Java need a JVM?"],
      contexts: [["Python was created by Guido van Rossum.", "Java is old."], ["Cats sleep a lot."]],
    });
    expect(result.individual_scores).toEqual([1, 0]);
    expect(result.score).toBe(0.5);
    expect(result.results?.[0]).toMatchObject({ status: "evaluated", score: 1 });
  });

  test("every judgment invalid: score NaN and meta.invalid counts them all", async () => {
    const { generator } = judgeByQuestion({ a: "nope", b: json({ relevant: "wrong key" }) });
    const result = await new ContextRelevanceEvaluator({ chatGenerator: generator, maxOutputRetries: 0 }).run(
      {
        questions: ["a", "b"],
        contexts: [["x"], ["y"]],
      },
    );
    expect(Number.isNaN(result.score)).toBe(true);
    expect(result.meta).toMatchObject({ evaluated: 0, invalid: 2 });
  });

  test("a failing model call throws by default, and is a NaN with raiseOnFailure: false", async () => {
    const failing = () =>
      new ScriptedChatGenerator({
        respond: () => {
          throw new Error("model is down");
        },
      });
    await expect(
      new ContextRelevanceEvaluator({ chatGenerator: failing() }).run({
        questions: ["a"],
        contexts: [["x"]],
      }),
    ).rejects.toThrow(/model is down/);
    const result = await new ContextRelevanceEvaluator({
      chatGenerator: failing(),
      raiseOnFailure: false,
    }).run({
      questions: ["a"],
      contexts: [["x"]],
    });
    expect(result.meta).toMatchObject({ failed: 1, evaluated: 0 });
    expect(Number.isNaN(result.individual_scores?.[0])).toBe(true);
  });
});

describe("LLMEvaluator", () => {
  test("user-defined inputs become sockets; results hold the judgment per question", async () => {
    const generator = new ScriptedChatGenerator({
      respond: (messages: readonly ChatMessage[]) =>
        messages[0]?.text?.includes("hell") ? json({ score: 1 }) : json({ score: 0 }),
    });
    const evaluator = new LLMEvaluator({
      instructions: "Is this answer problematic for children?",
      inputs: ["predicted_answers"],
      outputs: ["score"],
      examples: [
        { inputs: { predicted_answers: "Damn, this is straight outta hell!!!" }, outputs: { score: 1 } },
        { inputs: { predicted_answers: "Football is the most popular sport." }, outputs: { score: 0 } },
      ],
      chatGenerator: generator,
    });
    expect(Object.keys(evaluator.inputSockets)).toEqual(["predicted_answers"]);
    const result = await evaluator.run({
      predicted_answers: ["Football is great.", "Python is fun."],
    } as never);
    // Every prompt holds the examples, so the scripted model answers 1 for both.
    expect(result.results).toEqual([{ score: 1 }, { score: 1 }]);
    expect(result.meta).toMatchObject({ evaluated: 2, invalid: 0 });
  });

  test("examples must have exactly inputs and outputs", () => {
    expect(
      () =>
        new LLMEvaluator({
          instructions: "x",
          inputs: ["a"],
          outputs: ["b"],
          examples: [{ inputs: {}, output: {} } as never],
          chatGenerator: new ScriptedChatGenerator({ script: [] }),
        }),
    ).toThrow(/examples/);
  });
});

describe("judges over HTTP (a local OpenAI-compatible server)", () => {
  let server: FakeOpenAIServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
    vi.unstubAllEnvs();
  });

  test("FaithfulnessEvaluator through OpenAIChatGenerator: strict JSON schema requested, invalid JSON retried then NaN", async () => {
    vi.stubEnv("JUDGE_TEST_KEY", "sk-test");
    server = await startFakeOpenAIServer();
    server.enqueue(
      completion({ content: json({ statements: ["Berlin is in Germany."], statement_scores: [1] }) }),
      completion({ content: "not json at all" }),
      completion({ content: "still not json" }),
    );
    const chatGenerator = new OpenAIChatGenerator({
      model: "gpt-test",
      apiKey: { type: "env_var", env_vars: ["JUDGE_TEST_KEY"], strict: true },
      baseURL: server.baseURL,
      maxRetries: 0,
    });
    const result = await new FaithfulnessEvaluator({
      chatGenerator,
      concurrency: 1,
      maxOutputRetries: 1,
    }).run({
      questions: ["Is Berlin in Germany?", "Huh?"],
      contexts: [["Berlin is the capital of Germany."], ["nothing"]],
      predicted_answers: ["Yes, Berlin is in Germany.", "?"],
    });
    expect(result.individual_scores?.[0]).toBe(1);
    expect(Number.isNaN(result.individual_scores?.[1])).toBe(true);
    expect(result.score).toBe(1);
    expect(result.meta).toMatchObject({ evaluated: 1, invalid: 1 });
    expect(server.requests).toHaveLength(3);
    const format = server.requests[0]?.body.response_format as {
      type: string;
      json_schema: { strict: boolean };
    };
    expect(format.type).toBe("json_schema");
    expect(format.json_schema.strict).toBe(true);
  });
});
