import { excerpt, quoteExcerpt } from "@junction/core";
import { ChatMessage } from "@junction/llm";
import {
  type Context,
  evalToken,
  type Liquid,
  type Parser,
  Tag,
  type TagToken,
  type Template,
  type TopLevelToken,
  TypeGuards,
  Value,
  type ValueToken,
} from "liquidjs";

/**
 * The chat template tags:
 *
 * - `{% message role="user" name="ann" %}…{% endmessage %}` — one chat message whose text is the
 *   rendered body (trimmed). Roles: `user`, `system`, `assistant`. The role may be an expression
 *   (`role=turn.role`) and is checked when the message renders.
 * - `{% insert messages %}` — splices a `ChatMessage` or a list of them (from a variable) into the
 *   conversation at this point.
 *
 * The tags write what they produce into a collector held in the render context's registers, not into
 * the text, so nothing a variable contains can forge a message.
 */

/** The register key of the {@link ChatCollector}. */
export const chatCollectorKey = "junction.chat-collector";

/** The roles a `message` block may have. */
export const messageRoles = ["user", "system", "assistant"] as const;
/** A role a `message` block may have. */
export type MessageRole = (typeof messageRoles)[number];

/** One piece of a rendered chat template, in order. */
export type ChatPiece =
  | {
      readonly kind: "message";
      readonly role: MessageRole;
      readonly name: string | undefined;
      readonly text: string;
    }
  | { readonly kind: "insert"; readonly messages: readonly ChatMessage[] };

/** Where the tags put what they render. */
export interface ChatCollector {
  /** The pieces, in render order. */
  readonly pieces: ChatPiece[];
  /** Finds the original object of a value copied into the template's data (for `insert`). */
  readonly original: (view: unknown) => unknown;
}

const attributeNames = new Set(["role", "name"]);

function collector(context: Context, tag: string): ChatCollector {
  const found = context.getRegister<ChatCollector | undefined>(chatCollectorKey);
  if (found === undefined)
    throw new Error(`the "${excerpt(tag)}" tag only works in ChatPromptBuilder templates.`);
  return found;
}

function isRole(value: unknown): value is MessageRole {
  return typeof value === "string" && (messageRoles as readonly string[]).includes(value);
}

const roleHint = `one of ${messageRoles.map((role) => `"${excerpt(role)}"`).join(", ")} (tool messages can only be inserted with {% insert %})`;

/** `{% message role="..." name="..." %}…{% endmessage %}`. */
export class MessageTag extends Tag {
  readonly #attributes = new Map<string, ValueToken | undefined>();
  readonly #templates: Template[] = [];

  /** Parses the attributes and the body up to `endmessage`. */
  constructor(token: TagToken, remainTokens: TopLevelToken[], liquid: Liquid, parser: Parser) {
    super(token, remainTokens, liquid);
    for (const hash of this.tokenizer.readHashes("=")) {
      const name = hash.name.content;
      if (!attributeNames.has(name)) {
        throw new Error(
          `{% message %} takes role="..." and an optional name="..."; "${excerpt(name)}" is not an attribute.`,
        );
      }
      this.#attributes.set(name, hash.value);
    }
    const role = this.#attributes.get("role");
    if (role === undefined) throw new Error('{% message %} needs a role, e.g. {% message role="user" %}.');
    if (TypeGuards.isQuotedToken(role) && !isRole(role.content)) {
      throw new Error(
        `{% message %}: the role "${excerpt(role.content)}" is not supported; use ${roleHint}.`,
      );
    }
    while (remainTokens.length > 0) {
      const next = remainTokens.shift() as TopLevelToken;
      if (TypeGuards.isTagToken(next) && next.name === "endmessage") return;
      if (TypeGuards.isTagToken(next) && next.name === "message") {
        throw new Error("{% message %} blocks cannot be nested; close the first with {% endmessage %}.");
      }
      this.#templates.push(parser.parseToken(next, remainTokens));
    }
    throw new Error(`{% message %} is not closed; add {% endmessage %}.`);
  }

  /** Renders the body into a message piece. */
  *render(context: Context): Generator<unknown, void, unknown> {
    const chat = collector(context, "message");
    const values: Record<string, unknown> = {};
    for (const [name, token] of this.#attributes) {
      values[name] = token === undefined ? true : yield evalToken(token, context);
    }
    if (!isRole(values.role)) {
      throw new Error(
        `{% message %}: the role ${quoteExcerpt(values.role)} is not supported; use ${roleHint}.`,
      );
    }
    const name = values.name;
    if (name !== undefined && name !== null && typeof name !== "string") {
      throw new Error("{% message %}: name must be a string.");
    }
    const text = yield this.liquid.renderer.renderTemplates(this.#templates, context);
    chat.pieces.push({
      kind: "message",
      role: values.role,
      name: typeof name === "string" && name !== "" ? name : undefined,
      text: String(text).trim(),
    });
  }

  /** The body, for static analysis. */
  // biome-ignore lint/correctness/useYield: LiquidJS's analysis protocol reads the generator's return value.
  *children(): Generator<unknown, Template[], unknown> {
    return this.#templates;
  }

  /** The attribute values, for static analysis. */
  *arguments(): Generator<ValueToken, void, unknown> {
    for (const token of this.#attributes.values()) if (token !== undefined) yield token;
  }
}

/** `{% insert expression %}`. */
export class InsertTag extends Tag {
  readonly #value: Value;

  /** Parses the expression. */
  constructor(token: TagToken, remainTokens: TopLevelToken[], liquid: Liquid) {
    super(token, remainTokens, liquid);
    if (this.tokenizer.remaining().trim() === "") {
      throw new Error(
        "{% insert %} needs an expression that gives chat messages, e.g. {% insert messages %}.",
      );
    }
    this.#value = new Value(this.tokenizer.readFilteredValue(), liquid);
  }

  /** Splices the messages in. */
  *render(context: Context): Generator<unknown, void, unknown> {
    const chat = collector(context, "insert");
    const value = yield this.#value.value(context, false);
    chat.pieces.push({ kind: "insert", messages: resolveMessages(value, chat.original) });
  }

  /** The expression, for static analysis. */
  *arguments(): Generator<Value, void, unknown> {
    yield this.#value;
  }
}

function resolveMessages(value: unknown, original: (view: unknown) => unknown): ChatMessage[] {
  if (value === null || value === undefined || value === "") return [];
  const source = original(value) ?? value;
  if (source instanceof ChatMessage) return [source];
  if (Array.isArray(source)) {
    return source.map((item: unknown) => {
      const message = item instanceof ChatMessage ? item : original(item);
      if (message instanceof ChatMessage) return message;
      throw new Error(
        "{% insert %} must be given a ChatMessage or a list of ChatMessages; the list holds something else.",
      );
    });
  }
  throw new Error("{% insert %} must be given a ChatMessage or a list of ChatMessages.");
}
