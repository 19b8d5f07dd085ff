import type { Agent } from "@junction/agents";
import { RunInterruptedError } from "@junction/core";
import { ChatMessage, type ChatMessageJSON } from "@junction/llm";
import * as restate from "@restatedev/restate-sdk";
import { DefinitionChangedError } from "./errors.js";
import { definitionFingerprint } from "./fingerprint.js";
import { type RestateDurableOptions, restateDurable } from "./restate-durable.js";

/** Options of {@link junctionChatThread}. */
export interface JunctionChatThreadOptions extends RestateDurableOptions {
  /** The Restate virtual object's name (default `"JunctionChatThread"`): `/<name>/<threadId>/turn`. */
  readonly name?: string | undefined;
  /** The agent that answers each turn. */
  readonly agent: Agent;
  /** A version label mixed into the definition fingerprint (see `junctionWorkflow`). */
  readonly version?: string | undefined;
}

/** The body of a `turn`: the user's text, or whole messages. */
export type ChatTurnRequest =
  | { readonly message: string }
  | { readonly messages: readonly ChatMessageJSON[] };

/** What a `turn` returns. */
export interface ChatTurnResult {
  /** The text of the agent's last message. */
  readonly reply: string | undefined;
  /** The messages this turn added (the user's, the assistant's, tool results), as JSON. */
  readonly messages: readonly ChatMessageJSON[];
}

function userMessages(body: unknown): ChatMessage[] {
  const request = (body ?? {}) as Partial<{ message: unknown; messages: unknown }>;
  if (typeof request.message === "string") return [ChatMessage.fromUser(request.message)];
  if (Array.isArray(request.messages))
    return request.messages.map((message) => ChatMessage.fromJSON(message));
  throw new restate.TerminalError(
    'A turn needs { "message": "<text>" } or { "messages": [<ChatMessage JSON>] }.',
    { errorCode: 400 },
  );
}

/**
 * A chat thread as a Restate virtual object keyed by thread id: each `turn` runs the agent on the
 * thread's history plus the new message, durably (every model and tool call is a journaled step), and
 * appends the turn's messages to the history kept in the object's state. Restate runs one `turn` of a
 * thread at a time — turns sent together queue up, and each sees the history of the ones before.
 *
 * Handlers (`POST /<name>/<threadId>/<handler>`):
 * - `turn` — `{ "message": "Hi" }` (or `{ "messages": [...] }`) → `{ reply, messages }`;
 * - `history` — the thread's messages as JSON (a shared handler: it does not wait for a running turn);
 * - `reset` — forgets the history.
 *
 * A turn that stops at an interrupt (a tool that needs approval) fails with a terminal error and adds
 * nothing to the history: approvals need the durable promises of a workflow (`junctionWorkflow`).
 *
 * @param options - the agent, the object's name, the retry policy and a version label
 * @example
 * ```ts
 * const thread = junctionChatThread({ name: "Support", agent });
 * const endpoint = await serveJunction({ services: [thread] });
 * // POST /Support/thread-1/turn { "message": "Where is my order?" }
 * ```
 */
export function junctionChatThread(options: JunctionChatThreadOptions) {
  const { agent } = options;
  const fingerprint = definitionFingerprint(agent, options.version);
  const durableOptions: RestateDurableOptions = { retry: options.retry };
  return restate.object({
    name: options.name ?? "JunctionChatThread",
    handlers: {
      turn: async (ctx: restate.ObjectContext, body: unknown): Promise<ChatTurnResult> => {
        const started = await ctx.run("junction:definition", () => fingerprint);
        if (started !== fingerprint) {
          throw new DefinitionChangedError(
            `Junction chat thread "${ctx.key}": this turn was started by code with definition fingerprint ${started}; this deployment has ${fingerprint}. Keep the deployment that started it registered until the turn finishes.`,
            started,
            fingerprint,
          );
        }
        const incoming = userMessages(body);
        const history = ((await ctx.get<ChatMessageJSON[]>("messages")) ?? []).map((message) =>
          ChatMessage.fromJSON(message),
        );
        let output: { messages?: readonly ChatMessage[]; last_message?: ChatMessage };
        try {
          output = (await agent.run(
            { messages: [...history, ...incoming] },
            { durable: restateDurable(ctx, durableOptions) },
          )) as typeof output;
        } catch (error) {
          if (error instanceof RunInterruptedError) {
            throw new restate.TerminalError(
              `Junction chat thread "${ctx.key}": the turn stopped at ${error.interrupts.length} interrupt(s) (${error.interrupts.map((item) => `"${item.id}"`).join(", ")}); a chat thread cannot wait for approvals. Serve this agent with junctionWorkflow to approve tool calls.`,
              { errorCode: 409 },
            );
          }
          if (error instanceof restate.RestateError && !(error instanceof restate.TerminalError)) throw error;
          throw new restate.TerminalError(error instanceof Error ? error.message : String(error));
        }
        // The agent returns the whole conversation (with its system prompt): keep what is not system.
        const all = (output.messages ?? []).filter((message) => message.role !== "system");
        const added = all.slice(history.length).map((message) => message.toJSON());
        ctx.set(
          "messages",
          all.map((message) => message.toJSON()),
        );
        return { reply: output.last_message?.text, messages: added };
      },
      history: restate.handlers.object.shared(
        async (ctx: restate.ObjectSharedContext): Promise<ChatMessageJSON[]> =>
          (await ctx.get<ChatMessageJSON[]>("messages")) ?? [],
      ),
      reset: async (ctx: restate.ObjectContext): Promise<void> => {
        ctx.clear("messages");
      },
    },
  });
}
