import { type AnyComponent, isComponent } from "@junction/core";
import { z } from "zod";

/** The schema of one few-shot example: `{ inputs: {…}, outputs: {…} }`. */
export const judgeExampleSchema = z.strictObject({
  inputs: z.record(z.string(), z.unknown()),
  outputs: z.record(z.string(), z.unknown()),
});

/** The params every LLM judge shares (examples are added per judge, with its defaults). */
export const judgeParamsShape = {
  chatGenerator: z.custom<AnyComponent>(
    (value) => isComponent(value) && Object.hasOwn(value.inputSockets, "messages"),
    { message: "must be a chat generator component instance (e.g. new OpenAIChatGenerator({...}))." },
  ),
  maxOutputRetries: z.number().int().min(0).default(2),
  concurrency: z.number().int().min(1).default(4),
  raiseOnFailure: z.boolean().default(true),
};

/** The sockets the LLM judges add to `score` and `individual_scores`. */
export const judgeOutputs = {
  results: z.array(z.record(z.string(), z.unknown()).nullable()),
  meta: z.object({
    evaluated: z.number(),
    invalid: z.number(),
    failed: z.number(),
    token_usage: z.record(z.string(), z.unknown()).optional(),
  }),
};
