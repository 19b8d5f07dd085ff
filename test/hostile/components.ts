import { defineComponent, Secret, secretSchema } from "@junction/core";
import { z } from "zod";

/** Small components the hostile documents refer to. */

export const Echo = defineComponent({
  type: "hostile.Echo",
  params: z.object({
    prefix: z.string().default(""),
    options: z.record(z.string(), z.unknown()).default({}),
    list: z.array(z.unknown()).default([]),
  }),
  inputs: { text: z.string() },
  outputs: { text: z.string() },
  run: ({ text }, { params }) => ({ text: `${params.prefix}${text}` }),
});

export const Client = defineComponent({
  type: "hostile.Client",
  params: z.object({ apiKey: secretSchema.default(() => Secret.fromEnvVar("HOSTILE_KEY")) }),
  inputs: { text: z.string() },
  outputs: { text: z.string() },
  run: ({ text }) => ({ text }),
});

/** A valid two-component document the corpus mutates. */
export function baseDocument(): Record<string, unknown> {
  return {
    version: 1,
    metadata: {},
    max_runs_per_component: 100,
    connection_type_validation: true,
    components: {
      first: { type: "hostile.Echo", init_parameters: { prefix: "1:", options: {}, list: [] } },
      second: { type: "hostile.Echo", init_parameters: { prefix: "2:", options: {}, list: [] } },
    },
    connections: [{ sender: "first.text", receiver: "second.text" }],
  };
}
