/**
 * W6: what a SuperComponent costs. The same chain of `n` AddOne components runs inline, and wrapped
 * so that every component sits in its own SuperComponent (`n` wrappers), and as one wrapper per
 * `depth` levels of nesting.
 */
import { defineComponent, Pipeline, SuperComponent } from "@junction/core";
import { z } from "zod";

const AddOne = defineComponent({
  type: "bench.composition.AddOne",
  inputs: { value: z.number() },
  outputs: { value: z.number() },
  run: ({ value }) => ({ value: value + 1 }),
});

function chain(
  n: number,
  make: (index: number) => InstanceType<typeof AddOne> | InstanceType<typeof SuperComponent>,
) {
  const pipeline = new Pipeline({ maxRunsPerComponent: 1 });
  for (let index = 0; index < n; index += 1) {
    pipeline.addComponent(`c_${index}`, make(index));
    if (index > 0) pipeline.connect(`c_${index - 1}.value`, `c_${index}.value`);
  }
  return pipeline;
}

function runner(pipeline: Pipeline, n: number): () => Promise<number> {
  return async () => {
    const outputs = await pipeline.run({ c_0: { value: 0 } });
    return (outputs[`c_${n - 1}`] as { value: number }).value;
  };
}

/** The chain with every component inline. */
export function inlineChain(n: number): () => Promise<number> {
  return runner(
    chain(n, () => new AddOne()),
    n,
  );
}

/** The chain with every component wrapped in its own SuperComponent. */
export function wrappedChain(n: number): () => Promise<number> {
  return runner(
    chain(n, () => new SuperComponent({ pipeline: new Pipeline().addComponent("add", new AddOne()) })),
    n,
  );
}

/** One AddOne nested `depth` SuperComponents deep (so `depth` wrappers per run). */
export function nestedOne(depth: number): () => Promise<number> {
  let pipeline = new Pipeline().addComponent("c_0", new AddOne());
  for (let level = 0; level < depth; level += 1) {
    pipeline = new Pipeline().addComponent("c_0", new SuperComponent({ pipeline }));
  }
  return runner(pipeline, 1);
}
