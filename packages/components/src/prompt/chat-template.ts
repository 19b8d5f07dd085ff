import { ChatMessage } from "@junction/llm";
import { TemplateCache } from "./builder-params.js";
import { createSandboxedLiquid, type ParsedTemplate, renderTemplate } from "./liquid-sandbox.js";
import { type ChatCollector, chatCollectorKey, InsertTag, MessageTag } from "./message-tags.js";
import { templateScope } from "./template-scope.js";

/** Chat templates: a list of messages with templated texts, or a string of `{% message %}` blocks. */

const liquid = createSandboxedLiquid({ message: MessageTag, insert: InsertTag });
const templates = new TemplateCache(liquid);

/** One message of a list template, with its templated text parts. */
interface TemplatedMessage {
  readonly message: ChatMessage;
  /** Per content part: the parsed text template, or `undefined` for parts passed through. */
  readonly parts: readonly (ParsedTemplate | undefined)[] | undefined;
}

/** A compiled chat template. */
export type ChatTemplate =
  | {
      readonly kind: "messages";
      readonly messages: readonly TemplatedMessage[];
      readonly variables: readonly string[];
    }
  | { readonly kind: "blocks"; readonly template: ParsedTemplate; readonly variables: readonly string[] };

/**
 * Parses a chat template and finds its variables.
 *
 * @param source - messages (user and system texts are templates) or a string of `{% message %}` blocks
 * @throws Error naming the message and the parse problem
 */
export function compileChatTemplate(source: string | readonly ChatMessage[]): ChatTemplate {
  if (typeof source === "string") {
    const template = templates.get(source);
    return { kind: "blocks", template, variables: template.variables };
  }
  const variables = new Set<string>();
  const messages = source.map((message, index): TemplatedMessage => {
    if (message.role !== "user" && message.role !== "system") return { message, parts: undefined };
    const parts = message.content.map((part) => {
      if (part.type !== "text") return undefined;
      try {
        const parsed = templates.get(part.text);
        for (const name of parsed.variables) variables.add(name);
        return parsed;
      } catch (error) {
        throw new Error(
          `message ${index} (${message.role}) does not parse: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    });
    return { message, parts };
  });
  return { kind: "messages", messages, variables: [...variables] };
}

/**
 * Renders a compiled chat template.
 *
 * @param compiled - from {@link compileChatTemplate}
 * @param values - the variables (socket values merged with `template_variables`)
 */
export function renderChatTemplate(
  compiled: ChatTemplate,
  values: Readonly<Record<string, unknown>>,
): ChatMessage[] {
  const { scope, original } = templateScope(values);
  if (compiled.kind === "messages") {
    return compiled.messages.map(({ message, parts }) => {
      if (parts === undefined || parts.every((part) => part === undefined)) return message;
      const content = message.content.map((part, index) => {
        const template = parts[index];
        return template === undefined
          ? part
          : { type: "text" as const, text: renderTemplate(liquid, template, scope) };
      });
      return new ChatMessage({ role: message.role, content, name: message.name, meta: message.meta });
    });
  }
  const collector: ChatCollector = { pieces: [], original };
  const outside = renderTemplate(liquid, compiled.template, scope, { [chatCollectorKey]: collector });
  if (outside.trim() !== "") {
    const excerpt = outside.trim().slice(0, 80);
    throw new Error(
      `text outside {% message %} blocks: ${JSON.stringify(excerpt)}. Put every text inside a {% message role="..." %}...{% endmessage %} block.`,
    );
  }
  const messages: ChatMessage[] = [];
  collector.pieces.forEach((piece, index) => {
    if (piece.kind === "insert") {
      messages.push(...piece.messages);
      return;
    }
    if (piece.text === "") {
      throw new Error(
        `message block ${index} (role "${piece.role}") rendered to empty text; a message needs content.`,
      );
    }
    const options = piece.name === undefined ? {} : { name: piece.name };
    if (piece.role === "user") messages.push(ChatMessage.fromUser(piece.text, options));
    else if (piece.role === "system") messages.push(ChatMessage.fromSystem(piece.text, options));
    else messages.push(ChatMessage.fromAssistant({ text: piece.text, ...options }));
  });
  return messages;
}
