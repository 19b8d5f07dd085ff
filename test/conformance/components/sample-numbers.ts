import { variadic } from "@junction/core";
import { z } from "zod";
import { defineTestComponent } from "./define.js";

/** Ports of the reference's numeric sample components (`haystack/testing/sample_components`). */

/** Adds `add` (a param, or the optional `add` input) to `value`. */
export const AddFixedValue = defineTestComponent({
  type: "conformance.AddFixedValue",
  params: z.object({ add: z.number().default(1) }),
  inputs: { value: z.number(), add: z.number().optional() },
  outputs: { result: z.number() },
  run: ({ value, add }, { params }) => ({ result: value + (add ?? params.add) }),
});

/** Doubles the value. */
export const Double = defineTestComponent({
  type: "conformance.Double",
  inputs: { value: z.number() },
  outputs: { value: z.number() },
  run: ({ value }) => ({ value: value * 2 }),
});

/** Routes the value to `even` or `odd`. */
export const Parity = defineTestComponent({
  type: "conformance.Parity",
  inputs: { value: z.number() },
  outputs: { even: z.number(), odd: z.number() },
  run: ({ value }) => (value % 2 === 0 ? { even: value } : { odd: value }),
});

/** Routes the value to `remainder_is_<value % divisor>`. */
export const Remainder = defineTestComponent({
  type: "conformance.Remainder",
  params: z.object({ divisor: z.number().int().positive().default(3) }),
  inputs: { value: z.number() },
  outputs: ({ divisor }) =>
    Object.fromEntries(Array.from({ length: divisor }, (_, index) => [`remainder_is_${index}`, z.number()])),
  run: ({ value }, { params }) => ({ [`remainder_is_${value % params.divisor}`]: value }),
});

/** Sends the value on every output named in `outputs`. */
export const Repeat = defineTestComponent({
  type: "conformance.Repeat",
  params: z.object({ outputs: z.array(z.string()) }),
  inputs: { value: z.number() },
  outputs: ({ outputs }) => Object.fromEntries(outputs.map((name) => [name, z.number()])),
  run: ({ value }, { params }) => Object.fromEntries(params.outputs.map((name) => [name, value])),
});

/** Sums the values of every sender. */
export const Sum = defineTestComponent({
  type: "conformance.Sum",
  inputs: { values: variadic(z.number()) },
  outputs: { total: z.number() },
  run: ({ values }) => ({ total: values.reduce((total, value) => total + value, 0) }),
});

/** `first_value - second_value`. */
export const Subtract = defineTestComponent({
  type: "conformance.Subtract",
  inputs: { first_value: z.number(), second_value: z.number() },
  outputs: { difference: z.number() },
  run: ({ first_value, second_value }) => ({ difference: first_value - second_value }),
});

/** Routes the value to `below` or `above` a threshold (param, or the optional input). */
export const Threshold = defineTestComponent({
  type: "conformance.Threshold",
  params: z.object({ threshold: z.number().default(10) }),
  inputs: { value: z.number(), threshold: z.number().optional() },
  outputs: { above: z.number(), below: z.number() },
  run: ({ value, threshold }, { params }) =>
    value < (threshold ?? params.threshold) ? { below: value } : { above: value },
});

/** Adds every value it sees to a running total kept by the instance, and outputs the total. */
export const Accumulate = defineTestComponent({
  type: "conformance.Accumulate",
  inputs: { value: z.number() },
  outputs: { value: z.number() },
  setup: () => ({ state: 0 }),
  run: ({ value }, { resources }) => {
    resources.state += value;
    return { value: resources.state };
  },
});

/** Logs a greeting and passes the value on unchanged. */
export const Greet = defineTestComponent({
  type: "conformance.Greet",
  params: z.object({
    message: z.string().default("\nGreeting component says: Hi! The value is {value}\n"),
    log_level: z.enum(["debug", "info", "warn", "error"]).default("info"),
  }),
  inputs: { value: z.number(), message: z.string().optional(), log_level: z.string().optional() },
  outputs: { value: z.number() },
  run: ({ value, message }, { params, logger }) => {
    logger.info((message || params.message).replace("{value}", String(value)));
    return { value };
  },
});
