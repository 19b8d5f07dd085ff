import { greedyVariadic, variadic } from "@junction/core";
import { z } from "zod";
import { ChatMessage, chatMessageListSchema } from "./chat-message.js";
import { defineTestComponent } from "./define.js";
import { compileTemplate } from "./mini-jinja.js";

/**
 * Test-local equivalents of the routers, joiners and builders that `@junction/components` ships.
 *
 * TODO: replace with @junction/components BranchJoiner, ConditionalRouter, OutputAdapter, PromptBuilder,
 * ChatPromptBuilder and StringJoiner once they are exported (conditions then become CEL strings and
 * templates LiquidJS). These keep the reference's socket shapes so the expected component calls match.
 */

const schema = z.custom<z.ZodType>((value) => typeof value === "object" && value !== null && "_zod" in value);

/** Forwards the first value it receives (greedy variadic): the entry point of loops. */
export const BranchJoiner = defineTestComponent({
  type: "conformance.BranchJoiner",
  params: z.object({ type: schema }),
  inputs: ({ type }) => ({ value: greedyVariadic(type) }),
  outputs: ({ type }) => ({ value: type }),
  run: ({ value }) => ({ value: value[0] }),
});

/** The variables a route's functions receive. */
export type RouteVariables = Record<string, any>;

/** One route of the stand-in router: JavaScript functions in place of expressions. */
export interface StandInRoute {
  condition: (variables: RouteVariables) => boolean;
  output: (variables: RouteVariables) => unknown;
  outputName: string;
  outputType: z.ZodType;
}

/**
 * Routes by the first route whose condition holds; emits only that route's output. Input sockets are
 * `variables` (mandatory, `any`) plus `optionalVariables`.
 */
export const ConditionalRouter = defineTestComponent({
  type: "conformance.ConditionalRouter",
  params: z.object({
    routes: z.array(z.custom<StandInRoute>()),
    variables: z.array(z.string()),
    optionalVariables: z.array(z.string()).default([]),
  }),
  inputs: ({ variables, optionalVariables }) => ({
    ...Object.fromEntries(variables.map((name) => [name, z.any()])),
    ...Object.fromEntries(optionalVariables.map((name) => [name, z.any().optional()])),
  }),
  outputs: ({ routes }) => Object.fromEntries(routes.map((route) => [route.outputName, route.outputType])),
  run: (inputs, { params }) => {
    const route = params.routes.find((candidate) => candidate.condition(inputs));
    if (route === undefined) throw new Error("No route fired.");
    return { [route.outputName]: route.output(inputs) };
  },
});

/** Computes `output` from its inputs with a function (in place of an expression). */
export const OutputAdapter = defineTestComponent({
  type: "conformance.OutputAdapter",
  params: z.object({
    expression: z.custom<(variables: RouteVariables) => unknown>((value) => typeof value === "function"),
    variables: z.array(z.string()),
    outputType: schema,
  }),
  inputs: ({ variables }) => Object.fromEntries(variables.map((name) => [name, z.any()])),
  outputs: ({ outputType }) => ({ output: outputType }),
  run: (inputs, { params }) => ({ output: params.expression(inputs) }),
});

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

/** Collects the strings of every sender into a list. */
export const StringJoiner = defineTestComponent({
  type: "conformance.StringJoiner",
  inputs: { strings: variadic(z.string()) },
  outputs: { strings: z.array(z.string()) },
  run: ({ strings }) => ({ strings: [...strings] }),
});
