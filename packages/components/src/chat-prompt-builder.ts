import { defineComponent } from "@junction/core";
import { ChatMessage, chatMessageSchema } from "@junction/llm";
import { z } from "zod";
import { PromptRenderError } from "./errors.js";
import {
  builderParamsSchema,
  templateErrorText,
  templateStep,
  variableSockets,
  warnIfAllOptional,
} from "./prompt/builder-params.js";
import { compileChatTemplate, renderChatTemplate } from "./prompt/chat-template.js";

const templateParam = z.union([z.string(), z.array(chatMessageSchema)]);

const paramsSchema = builderParamsSchema(
  /** A list of messages whose user and system texts are templates, or a template of `{% message %}` blocks. */
  templateParam.optional(),
  (template) => compileChatTemplate(template).variables,
);

/**
 * Renders a list of chat messages from a template.
 *
 * The template is either a list of `ChatMessage`s — the text of each user and system message is a
 * Liquid template; other messages and non-text parts pass through unchanged — or a string of
 * `{% message role="..." %}…{% endmessage %}` blocks, with `{% insert messages %}` to splice in a list
 * of messages (a conversation history). Text outside the blocks must be whitespace.
 *
 * Sockets and sandbox as {@link PromptBuilder}: one input per template variable (mandatory unless
 * `requiredVariables` says otherwise; optional ones default to `""`), plus the runtime overrides
 * `template` and `template_variables`; the output `prompt` is the list of messages.
 *
 * @example
 * ```ts
 * const builder = new ChatPromptBuilder({
 *   template: '{% message role="system" %}You answer in {{ language }}.{% endmessage %}' +
 *     '{% insert history %}{% message role="user" %}{{ question }}{% endmessage %}',
 * });
 * const { prompt } = await builder.run({ language: "French", history: [], question: "Hi?" });
 * ```
 */
export const ChatPromptBuilder = defineComponent({
  type: "junction.ChatPromptBuilder",
  description: "Renders a list of chat messages from a template and its variables.",
  params: paramsSchema,
  setup: (params) => {
    const compiled = params.template === undefined ? undefined : compileChatTemplate(params.template);
    warnIfAllOptional(
      "ChatPromptBuilder",
      params.variables ?? compiled?.variables ?? [],
      params.requiredVariables,
    );
    return { compiled };
  },
  inputs: (params): Record<string, z.ZodType> => ({
    ...variableSockets(
      params.variables ??
        (params.template === undefined ? [] : compileChatTemplate(params.template).variables),
      params.requiredVariables,
    ),
    template: templateParam.optional(),
    template_variables: z.record(z.string(), z.any()).optional(),
  }),
  outputs: { prompt: z.array(chatMessageSchema) },
  run: (inputs, { params, resources, componentName }) => {
    const { template, template_variables, ...variables } = inputs as Record<string, unknown> & {
      template?: string | ChatMessage[] | undefined;
      template_variables?: Record<string, unknown> | undefined;
    };
    const who = `ChatPromptBuilder${componentName === undefined ? "" : ` "${componentName}"`}`;
    const fields = { componentName, componentType: "junction.ChatPromptBuilder" };
    const source = template ?? params.template;
    if (source === undefined || (typeof source === "string" ? source.trim() === "" : source.length === 0)) {
      throw new PromptRenderError(
        `${who}: there is no template to render. Pass \`template\` to the constructor or to run (a list of ChatMessages or a string of {% message %} blocks).`,
        fields,
      );
    }
    const compiled =
      (template === undefined ? resources.compiled : undefined) ??
      templateStep(who, fields, "parse", () => compileChatTemplate(source));
    return {
      prompt: templateStep(who, fields, "render", () =>
        renderChatTemplate(compiled, { ...variables, ...template_variables }),
      ),
    };
  },
  serializer: {
    toInitParameters: (params) => ({
      ...(params.template === undefined
        ? {}
        : {
            template:
              typeof params.template === "string"
                ? params.template
                : params.template.map((message: ChatMessage) => message.toJSON()),
          }),
      requiredVariables: params.requiredVariables,
      ...(params.variables === undefined ? {} : { variables: params.variables }),
    }),
    fromInitParameters: (initParameters, context) => {
      const template = initParameters.template;
      if (!Array.isArray(template)) return initParameters;
      const messages = template.map((message: unknown, index) => {
        try {
          return ChatMessage.fromJSON(message);
        } catch (error) {
          context.issues.push({
            path: [...context.path, "template", index],
            message: templateErrorText(error),
          });
          return message;
        }
      });
      return { ...initParameters, template: messages };
    },
  },
});

/** A `ChatPromptBuilder` instance (the class doubles as the instance type: `function f(x: ChatPromptBuilder)`). */
export type ChatPromptBuilder = InstanceType<typeof ChatPromptBuilder>;
