// Loaded by the installed `junction` command in .ci/pack-check: a TypeScript module (type annotations
// and an interface, so Node cannot import it without tsx) whose default export is a component.
import { defineComponent } from "@junction/core";
import { z } from "zod";

interface Shouted {
  readonly shouted: string;
}

function shout(text: string): Shouted {
  return { shouted: `${text.toUpperCase()}!` };
}

export default new (defineComponent({
  type: "consumer.Shout",
  inputs: { text: z.string() },
  outputs: { shouted: z.string() },
  run: ({ text }: { text: string }): Shouted => shout(text),
}))();
