import { defineComponent, InMemoryTracer, MemoryLogger, Pipeline } from "@junction/core";
import { expect, test } from "vitest";
import { z } from "zod";
import { AddFixedValue, Double, Join, Threshold } from "./support/pipeline-components.js";

function loop(tracer?: InMemoryTracer) {
  return new Pipeline({
    logger: new MemoryLogger(),
    metadata: { app: "test" },
    maxRunsPerComponent: 7,
    tracer,
  })
    .addComponent("join", new Join())
    .addComponent("double", new Double())
    .addComponent("check", new Threshold({ threshold: 5 }))
    .connect("join", "double")
    .connect("double", "check")
    .connect("check.below", "join");
}

test("a run is traced as a pipeline span with one child span per component run", async () => {
  const tracer = new InMemoryTracer();
  await loop(tracer).run({ join: { value: 1 } });
  const [pipelineSpan, ...rest] = tracer.spans;
  expect(pipelineSpan?.operationName).toBe("junction.pipeline.run");
  expect(pipelineSpan?.tags).toMatchObject({
    "junction.pipeline.input_data": { join: { value: 1 } },
    "junction.pipeline.metadata": { app: "test" },
    "junction.pipeline.max_runs_per_component": 7,
    "junction.pipeline.output_data": { check: { above: 8 } },
  });
  expect(
    rest.every((span) => span.operationName === "junction.component.run" && span.parent === pipelineSpan),
  ).toBe(true);
  expect(tracer.spans.every((span) => span.ended)).toBe(true);
  const calls = rest.map((span) => [
    span.tags["junction.component.name"],
    span.tags["junction.component.visit"],
    span.tags["junction.component.input"],
    span.tags["junction.component.output"],
  ]);
  expect(calls).toEqual([
    ["join", 1, { value: [1] }, { value: 1 }],
    ["double", 1, { value: 1 }, { value: 2 }],
    ["check", 1, { value: 2 }, { below: 2 }],
    ["join", 2, { value: [2] }, { value: 2 }],
    ["double", 2, { value: 2 }, { value: 4 }],
    ["check", 2, { value: 4 }, { below: 4 }],
    ["join", 3, { value: [4] }, { value: 4 }],
    ["double", 3, { value: 4 }, { value: 8 }],
    ["check", 3, { value: 8 }, { above: 8 }],
  ]);
});

test("component spans carry the type and the sender/receiver specs", async () => {
  const tracer = new InMemoryTracer();
  await loop().run({ join: { value: 10 } }, { tracer });
  const join = tracer.find("junction.component.run")[0]!;
  expect(join.tags["junction.component.type"]).toBe("ptest.Join");
  expect(join.tags["junction.component.input_spec"]).toEqual({
    value: { type: "number", senders: ["check"] },
  });
  expect(join.tags["junction.component.output_spec"]).toEqual({
    value: { type: "number", receivers: ["double"] },
  });
});

test("the run's tracer overrides the pipeline's", async () => {
  const own = new InMemoryTracer();
  const perRun = new InMemoryTracer();
  const p = new Pipeline({ tracer: own, logger: new MemoryLogger() }).addComponent(
    "add",
    new AddFixedValue(),
  );
  await p.run({ value: 1 }, { tracer: perRun });
  expect(own.spans).toHaveLength(0);
  expect(perRun.find("junction.component.run")).toHaveLength(1);
  await p.run({ value: 1 });
  expect(own.find("junction.component.run")).toHaveLength(1);
});

test("span inputs keep what the component received even when it mutates its inputs", async () => {
  const Mangler = defineComponent({
    type: "ptest.tracing.Mangler",
    inputs: { items: z.array(z.string()) },
    outputs: { items: z.array(z.string()) },
    run: ({ items }) => {
      items.push("extra");
      return { items };
    },
  });
  const tracer = new InMemoryTracer();
  const p = new Pipeline({ logger: new MemoryLogger(), tracer }).addComponent("mangler", new Mangler());
  expect(await p.run({ items: ["a"] })).toEqual({ mangler: { items: ["a", "extra"] } });
  expect(tracer.find("junction.component.run")[0]?.tags["junction.component.input"]).toEqual({
    items: ["a"],
  });
});
