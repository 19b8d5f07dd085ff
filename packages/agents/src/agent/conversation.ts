import { excerpt, type Issue } from "@junction/core";
import { ChatMessage, type ConversationStore } from "@junction/llm";
import { z } from "zod";
import { raceAbort } from "../abort.js";
import type { State } from "../state/state.js";

/**
 * Agent memory across turns: with `conversation: { store, id }` a run loads the stored history ahead of
 * its new messages and, when it completes, appends what it added (user, assistant and tool messages).
 * The loop calls three things here: {@link openTurn} before the run, `turn.commit` after it, and
 * `turn.release` at the end (always). An interrupted run stores nothing yet: its snapshot records the
 * turn ({@link ConversationTurnJSON}), and the resumed run appends the whole turn once it completes.
 */

/** Receives the messages that fall out of the window, and returns the message that replaces them. */
export type SummarizeHistory = (input: {
  /** The messages newly dropped from the window, oldest first (whole turns, tool pairs together). */
  readonly messages: readonly ChatMessage[];
  /** The previous summary (which covers everything before `messages`), if any. */
  readonly summary: ChatMessage | undefined;
  /** The run's abort signal. */
  readonly signal: AbortSignal | undefined;
}) => ChatMessage | Promise<ChatMessage>;

/** The Agent's `conversation` option. */
export interface ConversationOption {
  /** Where the conversation is kept (`MemoryConversationStore`, `FileConversationStore`, or your own). */
  readonly store: ConversationStore;
  /** The conversation; a run's `conversation_id` input overrides it. Without either, a run is stateless. */
  readonly id?: string | undefined;
}

/** The Agent's `historyLimit` option: what part of the stored history is sent to the model. */
export interface HistoryLimit {
  /** At most this many stored messages. */
  readonly messages?: number | undefined;
  /** At most about this many tokens of stored messages (estimated, see `countTokens`). */
  readonly tokens?: number | undefined;
  /** Estimates a message's tokens. Default: a quarter of the length of its JSON. */
  readonly countTokens?: ((message: ChatMessage) => number) | undefined;
  /** Replaces the messages left out with one summary message (kept in the store, updated as the window moves). */
  readonly summarize?: SummarizeHistory | undefined;
}

const isFunction = (value: unknown): boolean => typeof value === "function";

function isConversationStore(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  const store = value as Record<string, unknown>;
  return ["append", "read", "setSummary", "list", "delete"].every(
    (name) => typeof store[name] === "function",
  );
}

/** The schema of the `conversation` option. */
export const conversationOptionSchema = z.strictObject({
  store: z.custom<ConversationStore>(isConversationStore, {
    message: "must be a ConversationStore (e.g. new FileConversationStore(dir)).",
  }),
  id: z.string().optional(),
});

/** The schema of the `historyLimit` option. */
export const historyLimitSchema = z.strictObject({
  messages: z.number().int().min(1).optional(),
  tokens: z.number().int().min(1).optional(),
  countTokens: z
    .custom<(message: ChatMessage) => number>(isFunction, { message: "must be a function." })
    .optional(),
  summarize: z.custom<SummarizeHistory>(isFunction, { message: "must be a function." }).optional(),
});

/** The input socket a run names its conversation with. */
export const conversationInputs = { conversation_id: z.string().optional() };

/** Cross-option checks of the conversation options. */
export function conversationIssues(params: {
  conversation?: ConversationOption | undefined;
  historyLimit?: HistoryLimit | undefined;
  stateSchema: Record<string, unknown>;
}): Issue[] {
  const issues: Issue[] = [];
  if (params.historyLimit !== undefined && params.conversation === undefined) {
    issues.push({
      path: ["historyLimit"],
      message:
        "limits the stored history, but the Agent has no conversation option. Add conversation: { store }.",
    });
  }
  if (params.conversation !== undefined && Object.hasOwn(params.stateSchema, "conversation_id")) {
    issues.push({
      path: ["stateSchema", "conversation_id"],
      message: `"conversation_id" is the run input naming the conversation. Rename the State key.`,
    });
  }
  return issues;
}

/** Where a paused turn continues (kept in the Agent's part of the run snapshot). */
export interface ConversationTurnJSON {
  /** The conversation. */
  readonly id: string;
  /** The index in `messages` of the turn's first new message. */
  readonly start: number;
  /** The conversation's length when the turn loaded it (the append's `expectedLength`). */
  readonly length: number;
}

/** The snapshot schema of {@link ConversationTurnJSON}. */
export const conversationTurnSchema = z
  .strictObject({
    id: z.string(),
    start: z.number().int().min(0),
    length: z.number().int().min(0),
  })
  .describe("The conversation the paused turn belongs to; its messages are appended when it completes.");

/** Turns on one conversation in this process run one after another: store → id → the last turn's end. */
const queues = new WeakMap<ConversationStore, Map<string, Promise<void>>>();

/** Waits for the turns before this one on the same conversation. @returns the release function */
async function acquire(store: ConversationStore, id: string, signal: AbortSignal | undefined) {
  let byId = queues.get(store);
  if (byId === undefined) {
    byId = new Map();
    queues.set(store, byId);
  }
  const previous = byId.get(id) ?? Promise.resolve();
  let release!: () => void;
  const mine = new Promise<void>((resolve) => {
    release = resolve;
  });
  const tail = previous.then(() => mine);
  byId.set(id, tail);
  const done = () => {
    release();
    if (byId.get(id) === tail) byId.delete(id);
  };
  try {
    await raceAbort(previous, signal);
  } catch (error) {
    done();
    throw error;
  }
  return done;
}

/** One turn on a conversation: holds the conversation (in this process) until released. */
export class ConversationTurn {
  #release: (() => void) | undefined;

  constructor(
    readonly store: ConversationStore,
    readonly id: string,
    /** The index in the State's `messages` of the turn's first new message. */
    readonly start: number,
    /** The stored length the turn started from. */
    readonly length: number,
    release: () => void,
  ) {
    this.#release = release;
  }

  /** What a run snapshot keeps of the turn. */
  toJSON(): ConversationTurnJSON {
    return { id: this.id, start: this.start, length: this.length };
  }

  /** Appends the turn's new messages (system messages are never stored). */
  async commit(state: State): Promise<void> {
    const messages = (state.get("messages") as readonly ChatMessage[])
      .slice(this.start)
      .filter((message) => message.role !== "system");
    await this.store.append(this.id, messages, { expectedLength: this.length });
  }

  /** Lets the next turn on this conversation start. */
  release(): void {
    const release = this.#release;
    this.#release = undefined;
    release?.();
  }
}

function defaultCountTokens(message: ChatMessage): number {
  return Math.ceil(JSON.stringify(message).length / 4);
}

/**
 * Where the window may start: not on a tool result (its call would be cut off), and on a user message
 * when the window holds one (whole turns). @returns the index in `messages`
 */
function turnBoundary(messages: readonly ChatMessage[], from: number): number {
  for (let index = from; index < messages.length; index++) {
    if (messages[index]!.role === "user") return index;
  }
  let index = from;
  while (index < messages.length && messages[index]!.role === "tool") index++;
  return index;
}

/** The stored history to send: the tail allowed by `limit`, preceded by the summary when summarizing. */
async function loadWindow(
  store: ConversationStore,
  id: string,
  limit: HistoryLimit | undefined,
  signal: AbortSignal | undefined,
): Promise<{ window: ChatMessage[]; length: number }> {
  if (limit?.messages === undefined && limit?.tokens === undefined) {
    const all = await store.read(id);
    return { window: all.messages, length: all.length };
  }
  const countTokens = limit.countTokens ?? defaultCountTokens;
  // A messages limit is one tail read; a token budget alone reads growing tails until it is filled.
  let last = limit.messages ?? 64;
  let history = await store.read(id, { last });
  while (limit.messages === undefined && history.from > 0) {
    const tokens = history.messages.reduce((sum, message) => sum + countTokens(message), 0);
    if (tokens >= (limit.tokens ?? 0)) break;
    last *= 4;
    history = await store.read(id, { last });
  }
  const messages = history.messages;
  let cut = 0;
  if (limit.tokens !== undefined) {
    let total = 0;
    cut = messages.length;
    while (cut > 0) {
      const next = total + countTokens(messages[cut - 1]!);
      if (next > limit.tokens) break;
      total = next;
      cut--;
    }
  }
  const summary = limit.summarize === undefined ? undefined : history.summary;
  // A summary covering more than the window (a larger limit before) moves the window's start.
  if (summary !== undefined) cut = Math.max(cut, summary.covers - history.from);
  // The conversation's start is a boundary; anywhere else, move to one.
  if (history.from + cut > 0) cut = turnBoundary(messages, Math.min(cut, messages.length));
  const window = messages.slice(cut);
  const windowStart = history.from + cut;
  if (limit.summarize === undefined || windowStart === 0) return { window, length: history.length };
  const covered = summary?.covers ?? 0;
  let message = summary?.message;
  if (windowStart > covered) {
    const dropped = await store.read(id, { from: covered });
    message = await raceAbort(
      Promise.resolve(
        limit.summarize({
          messages: dropped.messages.slice(0, windowStart - covered),
          summary: summary?.message,
          signal,
        }),
      ),
      signal,
    );
    if (!(message instanceof ChatMessage)) {
      throw new TypeError(
        `Agent: historyLimit.summarize must return a ChatMessage (got ${excerpt(String(message))}).`,
      );
    }
    await store.setSummary(id, { message, covers: windowStart });
  }
  return { window: message === undefined ? window : [message, ...window], length: history.length };
}

/**
 * Before a run: when the Agent has a conversation and the run names one, waits for earlier turns on
 * it (in this process), loads the history window and puts it ahead of the run's new messages (system
 * messages first, so the system prompt is never stored or repeated).
 *
 * @returns the run's inputs with the history, and the turn (`undefined` for a stateless run)
 */
export async function openTurn(
  params: {
    conversation?: ConversationOption | undefined;
    historyLimit?: HistoryLimit | undefined;
    systemPrompt?: string | undefined;
  },
  inputs: Record<string, unknown>,
  signal: AbortSignal | undefined,
): Promise<{ inputs: Record<string, unknown>; turn: ConversationTurn | undefined }> {
  const option = params.conversation;
  const id = (inputs.conversation_id as string | undefined) ?? option?.id;
  if (option === undefined || id === undefined) return { inputs, turn: undefined };
  const release = await acquire(option.store, id, signal);
  try {
    const { window, length } = await loadWindow(option.store, id, params.historyLimit, signal);
    const given = (inputs.messages as readonly ChatMessage[] | undefined) ?? [];
    const system = given.filter((message) => message.role === "system");
    const rest = given.filter((message) => message.role !== "system");
    const start = (params.systemPrompt === undefined ? 0 : 1) + system.length + window.length;
    return {
      inputs: { ...inputs, messages: [...system, ...window, ...rest] },
      turn: new ConversationTurn(option.store, id, start, length, release),
    };
  } catch (error) {
    release();
    throw error;
  }
}

/** On resume: the paused turn again, holding its conversation until released. */
export async function resumeTurn(
  params: { conversation?: ConversationOption | undefined },
  saved: ConversationTurnJSON | undefined,
  signal: AbortSignal | undefined,
): Promise<ConversationTurn | undefined> {
  const option = params.conversation;
  if (option === undefined || saved === undefined) return undefined;
  const release = await acquire(option.store, saved.id, signal);
  return new ConversationTurn(option.store, saved.id, saved.start, saved.length, release);
}
