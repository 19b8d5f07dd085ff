import { z } from "zod";
import { ChatMessage, chatMessageListSchema } from "./chat-message.js";
import { defineTestComponent } from "./define.js";
import { compileTemplate } from "./mini-jinja.js";

/**
 * Test-local equivalents of the routers, joiners and builders that `@junction/components` ships.
 *
 * `BranchJoiner`, `StringJoiner`, `ConditionalRouter` and `OutputAdapter` are the real ones from
 * `@junction/components` (re-exported here; conditions are CEL). The prompt builders stay test-local: they
 * render the reference's Jinja templates verbatim (see `mini-jinja.ts`), so the expected prompts are the
 * reference's own strings. TODO: switch to @junction/components' PromptBuilder and ChatPromptBuilder
 * (Liquid templates; lists print as JSON, not as Python reprs).
 */

export { BranchJoiner, ConditionalRouter, OutputAdapter, StringJoiner } from "@junction/components";

const builderParams = z.object({
  template: z.string().optional(),
  variables: z.array(z.string()).optional(),
  required_variables: z.array(z.string()).optional(),
});

function builderVariables(templates: readonly string[], params: z.output<typeof builderParams>): string[] {
  return params.variables ?? [...new Set(templates.flatMap((text) => compileTemplate(text).variables))];
}

function variableSockets(names: readonly string[], required: readonly string[] | undefined) {
  return Object.fromEntries(
    names.map((name) => [name, required?.includes(name) ? z.any() : z.any().default("")]),
  );
}

/** Renders a (Jinja-subset) template into a string prompt. */
export const PromptBuilder = defineTestComponent({
  type: "conformance.PromptBuilder",
  params: builderParams,
  inputs: (params) => ({
    ...variableSockets(builderVariables([params.template ?? ""], params), params.required_variables),
    template: z.string().optional(),
    template_variables: z.record(z.string(), z.any()).optional(),
  }),
  outputs: { prompt: z.string() },
  run: (inputs, { params }) => {
    const { template, template_variables, ...variables } = inputs as Record<string, any>;
    const source: string = template ?? params.template ?? "";
    return { prompt: compileTemplate(source).render({ ...variables, ...template_variables }) };
  },
});

/** Renders the text of every message of a chat template. */
export const ChatPromptBuilder = defineTestComponent({
  type: "conformance.ChatPromptBuilder",
  params: z.object({
    template: z.array(z.instanceof(ChatMessage)).optional(),
    variables: z.array(z.string()).optional(),
    required_variables: z.array(z.string()).optional(),
  }),
  inputs: (params) => ({
    ...variableSockets(
      builderVariables(
        (params.template ?? []).map((message) => message.text ?? ""),
        { variables: params.variables },
      ),
      params.required_variables,
    ),
    template: chatMessageListSchema.optional(),
    template_variables: z.record(z.string(), z.any()).optional(),
  }),
  outputs: { prompt: chatMessageListSchema },
  run: (inputs, { params }) => {
    const { template, template_variables, ...variables } = inputs as Record<string, any>;
    const messages: ChatMessage[] = template ?? params.template ?? [];
    const scope = { ...variables, ...template_variables };
    return {
      prompt: messages.map(
        (message) =>
          new ChatMessage({
            role: message.role,
            content: [{ type: "text", text: compileTemplate(message.text ?? "").render(scope) }],
            meta: message.meta,
          }),
      ),
    };
  },
});
