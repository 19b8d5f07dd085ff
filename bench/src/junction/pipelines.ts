/**
 * W1 and W2 built with Junction's public API.
 */
import { defineComponent, Pipeline, variadic } from "@junction/core";
import { z } from "zod";
import { sleep } from "../harness.js";

const AddOne = defineComponent({
  type: "bench.AddOne",
  inputs: { value: z.number() },
  outputs: { value: z.number() },
  run: ({ value }) => ({ value: value + 1 }),
});

const Source = defineComponent({
  type: "bench.Source",
  inputs: { value: z.number() },
  outputs: { value: z.number() },
  run: ({ value }) => ({ value }),
});

const Delay = defineComponent({
  type: "bench.Delay",
  params: z.object({ ms: z.number(), offset: z.number() }),
  inputs: { value: z.number() },
  outputs: { value: z.number() },
  run: async ({ value }, { params }) => {
    await sleep(params.ms);
    return { value: value + params.offset };
  },
});

const Join = defineComponent({
  type: "bench.Join",
  inputs: { values: variadic(z.number()) },
  outputs: { total: z.number() },
  run: ({ values }) => ({ total: values.length }),
});

/** W1: `n` components in a line, each adds 1. */
export function junctionChain(n: number): () => Promise<number> {
  const pipeline = new Pipeline({ maxRunsPerComponent: 1 });
  for (let index = 0; index < n; index += 1) {
    pipeline.addComponent(`add_${index}`, new AddOne());
    if (index > 0) pipeline.connect(`add_${index - 1}.value`, `add_${index}.value`);
  }
  return async () => {
    const outputs = await pipeline.run({ add_0: { value: 0 } });
    return (outputs[`add_${n - 1}`] as { value: number }).value;
  };
}

/** W2: source → `branches` components that each await `delayMs` → one join. */
export function junctionFanOut(branches: number, delayMs: number): () => Promise<number> {
  const pipeline = new Pipeline();
  pipeline.addComponent("source", new Source()).addComponent("join", new Join());
  for (let index = 0; index < branches; index += 1) {
    pipeline.addComponent(`branch_${index}`, new Delay({ ms: delayMs, offset: index }));
    pipeline.connect("source.value", `branch_${index}.value`);
    pipeline.connect(`branch_${index}.value`, "join.values");
  }
  return async () => {
    const outputs = await pipeline.run({ source: { value: 1 } });
    return (outputs.join as { total: number }).total;
  };
}
