import { ConditionalRouter, OutputAdapter } from "@junction/components";
import { getDefaultLogger, MemoryLogger, setDefaultLogger } from "@junction/core";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { z } from "zod";
import { type ExpressionCase, expressionCases } from "./expressions.js";

/** Every message an expression of the corpus produces stays below this size (characters). */
const maxMessage = 4_000;

const previous = getDefaultLogger();
let logger: MemoryLogger;
beforeEach(() => {
  logger = new MemoryLogger();
  setDefaultLogger(logger);
});
afterEach(() => {
  setDefaultLogger(previous);
  for (const record of logger.records) {
    expect(record.message.length).toBeLessThan(maxMessage);
    expect(JSON.stringify(record.fields).length).toBeLessThan(maxMessage);
  }
});

function build(entry: ExpressionCase): { run(inputs: Record<string, unknown>): Promise<unknown> } {
  const expression = entry.expression();
  if (entry.site === "adapter") return new OutputAdapter({ expression, outputType: z.any() });
  return new ConditionalRouter({
    routes: [
      entry.site === "condition"
        ? { condition: expression, output: "true", outputName: "out", outputType: z.any() }
        : { condition: "true", output: expression, outputName: "out", outputType: z.any() },
      { condition: "true", output: "false", outputName: "fallback", outputType: z.any() },
    ],
  });
}

function messageOf(error: unknown): string {
  expect(error).toBeInstanceOf(Error);
  const message = (error as Error).message;
  expect(message.length).toBeLessThan(maxMessage);
  return message;
}

describe("hostile expressions are refused at construction or bounded at run time", () => {
  for (const entry of expressionCases) {
    test(`${entry.name} (${entry.foundBy})`, async () => {
      let component: ReturnType<typeof build>;
      try {
        component = build(entry);
      } catch (error) {
        if (!("refused" in entry.expect)) throw error;
        expect(messageOf(error)).toMatch(entry.expect.refused);
        return;
      }
      expect("refused" in entry.expect, "the component should have been refused").toBe(false);
      const inputs = entry.inputs();
      let result: unknown;
      try {
        result = await component.run(inputs);
      } catch (error) {
        if (!("fails" in entry.expect)) throw error;
        expect(messageOf(error)).toMatch(entry.expect.fails);
        return;
      }
      expect("fails" in entry.expect, "the run should have failed").toBe(false);
      const value =
        entry.site === "condition"
          ? "out" in (result as object)
          : ((result as { out?: unknown; output?: unknown }).out ?? (result as { output?: unknown }).output);
      if ("returns" in entry.expect) expect(value).toEqual(entry.expect.returns);
    }, 30_000);
  }
});
