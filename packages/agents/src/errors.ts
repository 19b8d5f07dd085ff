import { JunctionError, type JunctionErrorFields } from "@junction/core";

/**
 * A State was used against its schema: an unknown key, a value the key's schema rejects, or a document
 * that cannot be loaded. `issues` lists every problem with its path.
 *
 * @example
 * ```ts
 * try { state.set("nope", 1); } catch (error) {
 *   if (error instanceof StateError) console.log(error.code); // "STATE_ERROR"
 * }
 * ```
 */
export class StateError extends JunctionError {
  /** @param message - what is wrong and how to fix it @param fields - structured fields, usually `issues` */
  constructor(message: string, fields: JunctionErrorFields = {}) {
    super("STATE_ERROR", message, fields);
  }
}

/** Fields of an {@link AgentRunError}. */
export interface AgentRunErrorFields extends JunctionErrorFields {
  /** The conversation when the run stopped (read-only). */
  readonly messages: readonly unknown[];
  /** The steps completed before the run stopped. */
  readonly stepCount: number;
}

/**
 * An agent run failed or was aborted. It carries the conversation so far, so the work done before the
 * failure is not lost. `code` is `"AGENT_ABORTED"` when the run's `signal` aborted (then `cause` is the
 * signal's reason), `"AGENT_INVALID_OUTPUT"` when `raiseOnInvalidOutput` is set and the model's answers
 * never matched the `outputSchema` (then `issues` lists the last answer's problems), and
 * `"AGENT_RUN_ERROR"` otherwise (`cause` is the model, tool, hook or State error).
 *
 * @example
 * ```ts
 * try { await agent.run({ messages }, { signal }); } catch (error) {
 *   if (error instanceof AgentRunError) console.log(error.code, error.messages.length);
 * }
 * ```
 */
export class AgentRunError extends JunctionError {
  /** The conversation when the run stopped (read-only). Element type is `ChatMessage`. */
  readonly messages: readonly unknown[];
  /** The steps completed before the run stopped. */
  readonly stepCount: number;

  /**
   * @param code - `"AGENT_ABORTED"`, `"AGENT_INVALID_OUTPUT"` or `"AGENT_RUN_ERROR"`
   * @param message - what failed and how to fix it
   * @param fields - the conversation so far, the step count, the cause
   */
  constructor(
    code: "AGENT_ABORTED" | "AGENT_RUN_ERROR" | "AGENT_INVALID_OUTPUT",
    message: string,
    fields: AgentRunErrorFields,
  ) {
    super(code, message, fields);
    this.messages = fields.messages;
    this.stepCount = fields.stepCount;
  }
}
