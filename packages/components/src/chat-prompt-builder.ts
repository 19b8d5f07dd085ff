import { defineComponent } from "@junction/core";
import { ChatMessage, chatMessageSchema } from "@junction/llm";
import { z } from "zod";
import { PromptRenderError } from "./errors.js";
import {
  requiredVariablesParam,
  templateErrorText,
  variableProblems,
  variableSockets,
  variablesParam,
  warnIfAllOptional,
} from "./prompt/builder-params.js";
import { type ChatTemplate, compileChatTemplate, renderChatTemplate } from "./prompt/chat-template.js";

const templateParam = z.union([z.string(), z.array(chatMessageSchema)]);

const paramsSchema = z
  .object({
    /** A list of messages whose user and system texts are templates, or a template of `{% message %}` blocks. */
    template: templateParam.optional(),
    /** Which variables are mandatory inputs (`"*"`, the default: all). */
    requiredVariables: requiredVariablesParam,
    /** The variables to expose as inputs instead of the ones the template uses. */
    variables: variablesParam,
  })
  .superRefine((params, context) => {
    if (params.template === undefined) return;
    let compiled: ChatTemplate;
    try {
      compiled = compileChatTemplate(params.template);
    } catch (error) {
      context.addIssue({ code: "custom", path: ["template"], message: templateErrorText(error) });
      return;
    }
    for (const message of variableProblems(
      params.variables ?? compiled.variables,
      params.requiredVariables,
    )) {
      context.addIssue({ code: "custom", path: ["variables"], message });
    }
  });

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
    let compiled = template === undefined ? resources.compiled : undefined;
    if (compiled === undefined) {
      try {
        compiled = compileChatTemplate(source);
      } catch (error) {
        throw new PromptRenderError(
          `${who}: the runtime template does not parse: ${templateErrorText(error)}`,
          {
            ...fields,
            socket: "template",
            cause: error,
          },
        );
      }
    }
    try {
      return { prompt: renderChatTemplate(compiled, { ...variables, ...template_variables }) };
    } catch (error) {
      throw new PromptRenderError(`${who}: rendering the template failed: ${templateErrorText(error)}`, {
        ...fields,
        cause: error,
      });
    }
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
