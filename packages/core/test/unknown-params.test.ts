import { ComponentError, defineComponent, Pipeline } from "@junction/core";
import { describe, expect, test } from "vitest";
import { z } from "zod";

const Splitter = defineComponent({
  type: "test.Splitter",
  params: z.object({ splitLength: z.number().default(200), splitBy: z.string().default("word") }),
  inputs: { text: z.string() },
  outputs: { parts: z.array(z.string()) },
  run: ({ text }, { params }) => ({ parts: [text.slice(0, params.splitLength)] }),
});

describe("unknown component options are refused, not silently dropped", () => {
  test("a snake_case option names its camelCase spelling", () => {
    const attempt = () => new Splitter({ split_length: 100 } as never);
    expect(attempt).toThrow(ComponentError);
    expect(attempt).toThrow('unknown option "split_length". Did you mean "splitLength"?');
  });

  test("a misspelt option gets a did-you-mean and the list of options; every unknown key is reported", () => {
    try {
      new Splitter({ splitLenght: 100, colour: "red" } as never);
      expect.unreachable();
    } catch (error) {
      const issues = (error as ComponentError).issues;
      expect(issues.map((issue) => issue.path)).toEqual([
        ["params", "splitLenght"],
        ["params", "colour"],
      ]);
      expect(issues[0]?.message).toContain('Did you mean "splitLength"?');
      expect(issues[1]?.message).toContain('Its options are "splitLength", "splitBy".');
    }
  });

  test("a loaded pipeline document with an unknown init parameter is refused with its path", () => {
    const document = {
      version: 1,
      components: { s: { type: "test.Splitter", init_parameters: { split_by: "word" } } },
      connections: [],
    };
    expect(() => Pipeline.fromJSON(document)).toThrow(/split_by.*Did you mean "splitBy"/s);
  });

  test("schemas that accept extra keys on purpose keep accepting them", () => {
    const Loose = defineComponent({
      type: "test.Loose",
      params: z.object({ a: z.number().default(1) }).loose(),
      inputs: {},
      outputs: { a: z.number() },
      run: (_, { params }) => ({ a: params.a }),
    });
    expect(() => new Loose({ a: 2, extra: true } as never)).not.toThrow();
  });
});
