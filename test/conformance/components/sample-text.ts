import { variadic } from "@junction/core";
import { z } from "zod";
import { defineTestComponent } from "./define.js";

/** Ports of the reference's text sample components (`haystack/testing/sample_components`). */

/** `"Hello, <word>!"`. */
export const Hello = defineTestComponent({
  type: "conformance.Hello",
  inputs: { word: z.string() },
  outputs: { output: z.string() },
  run: ({ word }) => ({ output: `Hello, ${word}!` }),
});

/** Fills a Python-style `{name}` template; one optional `any` input per declared variable. */
export const FString = defineTestComponent({
  type: "conformance.FString",
  params: z.object({
    template: z.string(),
    variables: z
      .array(z.string())
      .default([])
      .refine((names) => !names.includes("template"), "the variable name 'template' is reserved"),
  }),
  inputs: ({ variables }) => ({
    template: z.string().optional(),
    ...Object.fromEntries(variables.map((name) => [name, z.any()])),
  }),
  outputs: { string: z.string() },
  run: (inputs, { params }) => {
    const { template, ...variables } = inputs as Record<string, unknown>;
    const source = typeof template === "string" && template !== "" ? template : params.template;
    return { string: source.replace(/\{(\w+)\}/g, (_, name: string) => String(variables[name])) };
  },
});

/** Splits a sentence into words. */
export const TextSplitter = defineTestComponent({
  type: "conformance.TextSplitter",
  inputs: { sentence: z.string() },
  outputs: { output: z.array(z.string()) },
  run: ({ sentence }) => ({ output: sentence.split(/\s+/).filter((word) => word !== "") }),
});

/** Joins the strings of every sender with a space. */
export const SampleStringJoiner = defineTestComponent({
  type: "conformance.SampleStringJoiner",
  inputs: { input_str: variadic(z.string()) },
  outputs: { output: z.string() },
  run: ({ input_str }) => ({ output: input_str.join(" ") }),
});

/** Concatenates the string lists of every sender. */
export const StringListJoiner = defineTestComponent({
  type: "conformance.StringListJoiner",
  inputs: { inputs: variadic(z.array(z.string())) },
  outputs: { output: z.array(z.string()) },
  run: ({ inputs }) => ({ output: inputs.flat() }),
});

/** Concatenates two strings or string lists into one list. */
export const Concatenate = defineTestComponent({
  type: "conformance.Concatenate",
  inputs: {
    first: z.union([z.array(z.string()), z.string()]),
    second: z.union([z.array(z.string()), z.string()]),
  },
  outputs: { value: z.array(z.string()) },
  run: ({ first, second }) => ({ value: [first, second].flat() }),
});
