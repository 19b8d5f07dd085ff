import { OutputAdaptationError, OutputAdapter } from "@junction/components";
import { ComponentError } from "@junction/core";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { roundTrip } from "./support/round-trip.js";

/** After the reference's test/components/converters/test_output_adapter.py (Jinja → CEL). */

describe("OutputAdapter", () => {
  test("the inputs are the expression's variables; the output is `output` with the given type", () => {
    const adapter = new OutputAdapter({
      expression: "documents[0].content + suffix",
      outputType: z.string(),
    });
    expect(Object.keys(adapter.inputSockets).sort()).toEqual(["documents", "suffix"]);
    expect(Object.values(adapter.inputSockets).every((socket) => socket.mandatory)).toBe(true);
    expect(Object.keys(adapter.outputSockets)).toEqual(["output"]);
    expect(adapter.outputSockets.output?.schema._zod.def.type).toBe("string");
  });

  test("computes native values", async () => {
    const documents = [
      { content: "first", meta: { score: 0.5 } },
      { content: "second", meta: { score: 0.9 } },
    ];
    const pick = (expression: string) =>
      new OutputAdapter({ expression, outputType: z.any() }).run({ documents });
    expect(await pick("documents[0].content")).toEqual({ output: "first" });
    expect(await pick("documents.map(d, d.content)")).toEqual({ output: ["first", "second"] });
    expect(await pick("documents.filter(d, d.meta.score > 0.7).map(d, d.content)")).toEqual({
      output: ["second"],
    });
    expect(await pick("size(documents)")).toEqual({ output: 2 });
    expect(await pick('{"count": size(documents), "top": documents[1].content}')).toEqual({
      output: { count: 2, top: "second" },
    });
    expect((await pick("documents[1]")).output).toBe(documents[1]);
  });

  test("an expression that fails at run time → OutputAdaptationError naming the expression", async () => {
    const adapter = new OutputAdapter({ expression: "documents[5].content", outputType: z.string() });
    const error = await adapter.run({ documents: [] }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OutputAdaptationError);
    expect((error as OutputAdaptationError).code).toBe("OUTPUT_ADAPTATION_ERROR");
    expect((error as Error).message).toContain('"documents[5].content" failed');
  });

  test("an invalid expression fails at construction", () => {
    expect(() => new OutputAdapter({ expression: "documents[0", outputType: z.string() })).toThrow(
      ComponentError,
    );
    expect(() => new OutputAdapter({ expression: "", outputType: z.string() })).toThrow(
      /the expression is empty/,
    );
    expect(() => new OutputAdapter({ expression: '1 + "a"', outputType: z.string() })).toThrow(
      /no such overload/,
    );
  });

  test("a missing input is reported before evaluation", async () => {
    const adapter = new OutputAdapter({ expression: "a + b", outputType: z.number() });
    await expect(adapter.run({ a: 1 })).rejects.toThrow(/b: missing mandatory input/);
    expect(await adapter.run({ a: 1, b: 2 })).toEqual({ output: 3 });
  });

  test("round-trips with its output type as JSON Schema", async () => {
    const adapter = new OutputAdapter({ expression: "xs.map(x, x * 2)", outputType: z.array(z.number()) });
    const { initParameters, copy } = roundTrip(adapter);
    expect(initParameters).toMatchObject({
      expression: "xs.map(x, x * 2)",
      outputType: { type: "array", items: { type: "number" } },
    });
    expect(await copy.run({ xs: [1, 2] })).toEqual({ output: [2, 4] });
    expect(copy.outputSockets.output?.schema._zod.def.type).toBe("array");
  });
});
