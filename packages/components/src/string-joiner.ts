import { defineComponent, variadic } from "@junction/core";
import { z } from "zod";

/**
 * Collects the strings of several senders into one list of strings, in the order the pipeline delivers
 * them.
 *
 * @example
 * ```ts
 * pipeline.connect("builder_1.prompt", "joiner.strings");
 * pipeline.connect("builder_2.prompt", "joiner.strings");
 * ```
 */
export const StringJoiner = defineComponent({
  type: "junction.StringJoiner",
  description: "Collects the strings received from every sender into one list.",
  inputs: { strings: variadic(z.string()) },
  outputs: { strings: z.array(z.string()) },
  run: ({ strings }) => ({ strings: [...strings] }),
});

/** A `StringJoiner` instance (the class doubles as the instance type: `function f(x: StringJoiner)`). */
export type StringJoiner = InstanceType<typeof StringJoiner>;
