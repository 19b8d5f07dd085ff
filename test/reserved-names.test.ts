import { State } from "@junction/agents";
import { ConditionalRouter, OutputAdapter } from "@junction/components";
import {
  ComponentError,
  defineComponent,
  MemoryLogger,
  Pipeline,
  PipelineValidationError,
} from "@junction/core";
import { describe, expect, test } from "vitest";
import { z } from "zod";

/** `__proto__`, `constructor` and `prototype` never name a socket, route output, State key or component. */

const Echo = defineComponent({
  type: "test.reserved.Echo",
  inputs: { text: z.string() },
  outputs: { text: z.string() },
  run: ({ text }) => ({ text }),
});

describe("reserved names are refused where names are defined", () => {
  test.each(["__proto__", "constructor", "prototype"])("%s as a socket name", (name) => {
    const withInput = () =>
      defineComponent({
        type: `test.reserved.Input.${name}`,
        inputs: { [name]: z.string() },
        outputs: { out: z.string() },
        run: () => ({ out: "" }),
      });
    expect(withInput).toThrow(ComponentError);
    expect(withInput).toThrow(new RegExp(`"${name}" cannot be an input socket name`));
    const withOutput = () =>
      defineComponent({
        type: `test.reserved.Output.${name}`,
        inputs: { text: z.string() },
        outputs: { [name]: z.string() },
        run: () => ({}),
      });
    expect(withOutput).toThrow(new RegExp(`"${name}" cannot be an output socket name`));
  });

  test.each(["__proto__", "constructor", "prototype"])("%s as a component name", (name) => {
    expect(() => new Pipeline().addComponent(name, new Echo())).toThrow(PipelineValidationError);
    expect(() => new Pipeline().addComponent(name, new Echo())).toThrow(/cannot be a component name/);
  });

  test("route output names and route variables", () => {
    const route = (outputName: string, condition = "true") =>
      new ConditionalRouter({ routes: [{ condition, output: "1", outputName, outputType: z.number() }] });
    expect(() => route("__proto__")).toThrow(ComponentError);
    expect(() => route("__proto__")).toThrow(/route 0 \("__proto__"\): "__proto__" cannot be an output name/);
    expect(() => route("prototype")).toThrow(/"prototype" cannot be an output name/);
    expect(() => route("ok", "constructor == 1")).toThrow(/reads the variable "constructor"/);
    expect(() => new OutputAdapter({ expression: "constructor.x", outputType: z.any() })).toThrow(
      /"constructor" cannot be an input socket name/,
    );
  });

  test("State keys", () => {
    expect(() => new State({ schema: { constructor: { type: z.string() } } })).toThrow(
      /"constructor" cannot be a State key/,
    );
  });
});

test("outputs a component returns under an undeclared '__proto__' key stay plain entries", async () => {
  const Sneaky = defineComponent({
    type: "test.reserved.Sneaky",
    inputs: { text: z.string() },
    outputs: { text: z.string() },
    run: ({ text }) => JSON.parse(`{"text": ${JSON.stringify(text)}, "__proto__": {"polluted": true}}`),
  });
  const outputs = await new Pipeline({ logger: new MemoryLogger() })
    .addComponent("s", new Sneaky())
    .run({ s: { text: "x" } });
  const reported = outputs.s as Record<string, unknown>;
  expect(Object.getPrototypeOf(reported)).toBe(Object.prototype);
  expect(reported.polluted).toBeUndefined();
  expect(Object.hasOwn(reported, "__proto__")).toBe(true);
});
