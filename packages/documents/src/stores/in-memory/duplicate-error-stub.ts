import { JunctionError } from "@junction/core";
export class DuplicateDocumentError extends JunctionError {
  readonly ids: readonly string[];
  constructor(ids: readonly string[]) {
    super("DUPLICATE_DOCUMENT", `duplicate ids ${ids.join(", ")}`);
    this.ids = ids;
  }
}
