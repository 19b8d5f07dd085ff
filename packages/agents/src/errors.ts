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
