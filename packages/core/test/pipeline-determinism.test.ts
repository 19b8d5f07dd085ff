import { defineComponent, InMemoryTracer, MemoryLogger, Pipeline, variadic } from "@junction/core";
import fc from "fast-check";
import { expect, test } from "vitest";
import { z } from "zod";
import { delay } from "./support/pipeline-components.js";

/** Property: for random DAGs and random latencies, results do not depend on concurrency or timing. */

let latencies: number[] = [];
let cursor = 0;

const Mix = defineComponent({
  type: "ptest.determinism.Mix",
  inputs: { parts: variadic(z.string().default("seed")) },
  outputs: { text: z.string() },
  run: async ({ parts }, { componentName }) => {
    const wait = latencies.length === 0 ? 0 : latencies[cursor++ % latencies.length]!;
    if (wait > 0) await delay(wait);
    else await Promise.resolve();
    return { text: `${componentName}(${parts.join(",")})` };
  },
});

const graphs = fc.integer({ min: 2, max: 7 }).chain((size) =>
  fc.record({
    size: fc.constant(size),
    edges: fc.array(fc.tuple(fc.nat(size - 1), fc.nat(size - 1)), { maxLength: size * 2 }),
    latencies: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 10 }),
    cap: fc.integer({ min: 1, max: 4 }),
  }),
);

async function observe(size: number, edges: [number, number][], concurrency: number) {
  cursor = 0;
  const pipeline = new Pipeline({ logger: new MemoryLogger() });
  for (let index = 0; index < size; index += 1) pipeline.addComponent(`n${index}`, new Mix());
  for (const [a, b] of edges) {
    if (a < b) pipeline.connect(`n${a}.text`, `n${b}.parts`);
  }
  const tracer = new InMemoryTracer();
  const outputs = await pipeline.run({}, { concurrency, tracer });
  const calls = tracer
    .find("junction.component.run")
    .map(
      (span) =>
        `${span.tags["junction.component.name"]}#${span.tags["junction.component.visit"]}:${JSON.stringify(span.tags["junction.component.input"])}`,
    )
    .sort();
  return { outputs, calls };
}

test("random DAGs give the same outputs and inputs at any concurrency and any latencies", async () => {
  await fc.assert(
    fc.asyncProperty(graphs, async ({ size, edges, latencies: delays, cap }) => {
      const unique = [...new Map(edges.map((edge) => [edge.join(), edge] as const)).values()];
      latencies = [];
      const reference = await observe(size, unique, 1);
      latencies = delays;
      expect(await observe(size, unique, Number.POSITIVE_INFINITY)).toEqual(reference);
      expect(await observe(size, unique, cap)).toEqual(reference);
    }),
    { numRuns: 40 },
  );
});
