import { isComponent } from "@junction/core";
import { z } from "zod";
import type { JsonSchema } from "../tools/tool-parameters.js";

/**
 * A request that the model's reply be a JSON value matching `json_schema.schema` — the `json_schema`
 * response format of OpenAI's chat API, which most OpenAI-compatible servers (vLLM, Ollama, llama.cpp,
 * LM Studio) accept as well. The shape is plain JSON, so it works as a socket value and serializes.
 */
export interface JsonSchemaResponseFormat {
  /** Always `"json_schema"`. */
  readonly type: "json_schema";
  readonly json_schema: {
    /** A name for the schema (1–64 letters, digits, `_` or `-`). */
    readonly name: string;
    /** The JSON Schema the reply must match (its root is an object). */
    readonly schema: JsonSchema;
    /** Ask for strict adherence; a generator makes the schema strict as its provider requires. */
    readonly strict?: boolean | undefined;
    /** What the schema describes, for the model. */
    readonly description?: string | undefined;
  };
}

/** The zod schema of {@link JsonSchemaResponseFormat} (the `response_format` input socket's type). */
export const jsonSchemaResponseFormatSchema: z.ZodType<JsonSchemaResponseFormat> = z.object({
  type: z.literal("json_schema"),
  json_schema: z.object({
    name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, "must be 1 to 64 letters, digits, '_' or '-'"),
    schema: z.record(z.string(), z.unknown()),
    strict: z.boolean().optional(),
    description: z.string().optional(),
  }),
});

/**
 * The optional input socket a chat generator declares when it can constrain a reply to a JSON Schema
 * (spread it into the generator's `inputs` next to {@link chatGeneratorInputs}). Declaring it is how a
 * generator says it supports structured replies: the Agent's `outputStrategy: "auto"` uses it when the
 * socket is there. A generator receiving a `response_format` must send it to its model for that call.
 *
 * @example
 * ```ts
 * defineComponent({
 *   type: "myapp.MyGenerator",
 *   inputs: { ...chatGeneratorInputs, ...responseFormatInputs },
 *   outputs: chatGeneratorOutputs,
 *   run,
 * });
 * ```
 */
export const responseFormatInputs = {
  response_format: jsonSchemaResponseFormatSchema.optional(),
};

/**
 * True when `generator` is a component that declares the `response_format` input of
 * {@link responseFormatInputs}, i.e. supports JSON-schema response formats.
 *
 * @param generator - a chat generator (anything else gives `false`)
 */
export function supportsResponseFormat(generator: unknown): boolean {
  return isComponent(generator) && Object.hasOwn(generator.inputSockets as object, "response_format");
}
