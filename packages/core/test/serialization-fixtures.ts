import { defineComponent, Secret, secretSchema, variadic } from "@junction/core";
import { z } from "zod";

/** Components shared by the serialization tests. */

export const AddFixedValue = defineComponent({
  type: "test.doc.AddFixedValue",
  params: z.object({ add: z.number().default(1) }),
  inputs: { value: z.number(), add: z.number().optional() },
  outputs: { result: z.number() },
  run: ({ value, add }, { params }) => ({ result: value + (add ?? params.add) }),
});

export const Double = defineComponent({
  type: "test.doc.Double",
  inputs: { value: z.number() },
  outputs: { value: z.number() },
  run: ({ value }) => ({ value: value * 2 }),
});

export const Sum = defineComponent({
  type: "test.doc.Sum",
  inputs: { values: variadic(z.number()) },
  outputs: { total: z.number() },
  run: ({ values }) => ({ total: values.reduce((a, b) => a + b, 0) }),
});

export const Label = defineComponent({
  type: "test.doc.Label",
  params: z.object({
    prefix: z.string(),
    apiKey: secretSchema.default(() => Secret.fromEnvVar("LABEL_KEY")),
  }),
  inputs: { value: z.number(), suffix: z.string().default("!") },
  outputs: { text: z.string() },
  run: ({ value, suffix }, { params }) => ({ text: `${params.prefix}${value}${suffix}` }),
});
