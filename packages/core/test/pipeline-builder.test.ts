import { MemoryLogger, Pipeline, PipelineConnectError } from "@junction/core";
import { expect, test } from "vitest";
import { AddFixedValue, Double } from "./support/pipeline-components.js";

test("the typed builder assembles a pipeline that runs", async () => {
  const pipeline = Pipeline.builder({ logger: new MemoryLogger(), metadata: { built: true } })
    .add("adder", new AddFixedValue({ add: 2 }))
    .add("double", new Double())
    .connect("adder.result", "double.value")
    .build();
  expect(pipeline.metadata).toEqual({ built: true });
  expect(pipeline.connections()).toEqual([{ sender: "adder.result", receiver: "double.value" }]);
  expect(await pipeline.run({ adder: { value: 1 } })).toEqual({ double: { value: 6 } });
});

test("the runtime checks still run behind the typed builder", () => {
  const builder = Pipeline.builder().add("a", new Double()).add("b", new Double()).add("c", new Double());
  builder.connect("a", "c");
  expect(() => builder.connect("b", "c")).toThrow(PipelineConnectError);
});
