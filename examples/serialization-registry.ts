/**
 * A serialization round trip with a custom component: the component is registered in a user registry,
 * the pipeline is written to YAML, loaded back through that registry (and only through it — loading
 * never imports code named in a document), and both pipelines give the same result.
 *
 * Run: npx tsx --conditions=@junction/source examples/serialization-registry.ts
 */
import { createRegistry, DeserializationError, defineComponent, Pipeline } from "@junction/core";
import { z } from "zod";
import { type ExampleIO, runIfMain } from "./io.js";

/** Repeats a text, optionally in upper case. */
export const Echo = defineComponent({
  type: "examples.Echo",
  params: z.object({ times: z.number().int().min(1).default(2), upper: z.boolean().default(false) }),
  inputs: { text: z.string() },
  outputs: { text: z.string() },
  run: ({ text }, { params }) => ({
    text: Array(params.times)
      .fill(params.upper ? text.toUpperCase() : text)
      .join(" "),
  }),
});

/** Saves, loads, runs both, and shows what loading refuses. */
export async function main(io: ExampleIO): Promise<{ same: boolean; yaml: string }> {
  const registry = createRegistry().register(Echo);
  const pipeline = new Pipeline()
    .addComponent("first", new Echo({ times: 2 }))
    .addComponent("second", new Echo({ times: 1, upper: true }))
    .connect("first.text", "second.text");

  const yaml = pipeline.toYAML({ registry });
  io.write(`${yaml}\n`);
  const loaded = Pipeline.fromYAML(yaml, { registry });
  const original = await pipeline.run({ first: { text: "hi" } });
  const reloaded = await loaded.run({ first: { text: "hi" } });
  const same = JSON.stringify(original) === JSON.stringify(reloaded);
  io.write(`original: ${JSON.stringify(original)}\nreloaded: ${JSON.stringify(reloaded)}\nsame: ${same}\n`);

  // A document naming a type the registry does not know is refused, with every problem listed.
  const tampered = yaml.replace("examples.Echo", "child_process.exec").replace("times: 1", "times: -3");
  try {
    Pipeline.fromYAML(tampered, { registry });
  } catch (error) {
    if (!(error instanceof DeserializationError)) throw error;
    io.write(
      `refused a tampered document:\n${error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`).join("\n")}\n`,
    );
  }
  return { same, yaml };
}

runIfMain(import.meta.url, main);
