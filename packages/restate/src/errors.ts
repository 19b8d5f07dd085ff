import { JunctionError, type JunctionErrorFields } from "@junction/core";

/**
 * Code with another definition fingerprint met a run: the run was started by a different pipeline or
 * agent definition. Restate retries it (it is not terminal), so the run continues once the deployment
 * that started it serves it again; nothing of the run is lost or re-executed.
 */
export class DefinitionChangedError extends JunctionError {
  /** The fingerprint recorded by the code that started the run. */
  readonly recorded: string;
  /** The fingerprint of this code. */
  readonly current: string;

  constructor(message: string, recorded: string, current: string, fields: JunctionErrorFields = {}) {
    super("RESTATE_DEFINITION_CHANGED", message, fields);
    this.name = "DefinitionChangedError";
    this.recorded = recorded;
    this.current = current;
  }
}
