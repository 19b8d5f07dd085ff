/**
 * The conformance scenarios pass their test `Document` and `GeneratedAnswer` classes between
 * components; a durable run (Restate, or `durability: "steps"`) journals component results, so these
 * classes are registered with their JSON forms. Import this module for its effect.
 */
import { fromDurableJSON, registerDurableType, toDurableJSON } from "@junction/core";
import { Document, GeneratedAnswer } from "./document.js";

registerDurableType({
  name: "conformance.Document",
  type: Document,
  toJSON: (document) => ({
    id: document.id,
    content: document.content,
    meta: document.meta,
    score: document.score,
  }),
  fromJSON: (json) => new Document(json as ConstructorParameters<typeof Document>[0]),
});
registerDurableType({
  name: "conformance.GeneratedAnswer",
  type: GeneratedAnswer,
  // Nested values (documents, meta) go through the durable JSON themselves.
  toJSON: (answer) => toDurableJSON({ ...answer }),
  fromJSON: (json) =>
    new GeneratedAnswer(fromDurableJSON(json) as ConstructorParameters<typeof GeneratedAnswer>[0]),
});
