import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  defineComponent,
  greedyVariadic,
  Pipeline,
  pipelineDocumentJSONSchema,
  pipelineDocumentSchema,
} from "@junction/core";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { AddFixedValue, Double, Label, Sum } from "./serialization-fixtures.js";

function knownPipeline(): Pipeline {
  const p = new Pipeline();
  p.addComponent("adder", new AddFixedValue({ add: 2 }))
    .addComponent("double", new Double())
    .addComponent("sum", new Sum())
    .addComponent('label "x" <b>', new Label({ prefix: "n=" }));
  p.connect("adder.result", "double.value");
  p.connect("adder.result", "sum.values");
  p.connect("double.value", "sum.values");
  p.connect("sum.total", 'label "x" <b>.value');
  return p;
}

describe("Pipeline.toMermaid", () => {
  test("draws components with types, typed edges, optional and variadic inputs, escaped names", () => {
    expect(knownPipeline().toMermaid()).toBe(
      [
        "flowchart LR",
        '  c0["<b>adder</b><br/><i>test.doc.AddFixedValue</i>"]',
        '  c1["<b>double</b><br/><i>test.doc.Double</i>"]',
        '  c2["<b>sum</b><br/><i>test.doc.Sum</i>"]',
        '  c3["<b>label #quot;x#quot; #lt;b#gt;</b><br/><i>test.doc.Label</i>"]',
        '  inputs(["inputs"])',
        '  outputs(["outputs"])',
        '  inputs -- "value<br/>number" --> c0',
        '  inputs -- "add (optional)<br/>number | undefined" --> c0',
        '  inputs -- "values (variadic)<br/>number" --> c2',
        '  inputs -- "suffix (optional)<br/>string" --> c3',
        '  c0 -- "result → value<br/>number" --> c1',
        '  c0 -- "result → values (variadic)<br/>number" --> c2',
        '  c1 -- "value → values (variadic)<br/>number" --> c2',
        '  c2 -- "total → value<br/>number" --> c3',
        '  c3 -- "text<br/>string" --> outputs',
        "",
      ].join("\n"),
    );
  });

  test("shows a loop's entry input, as pipeline.inputs() lists it", () => {
    const Entry = defineComponent({
      type: "test.mermaid.Entry",
      inputs: { value: greedyVariadic(z.number()) },
      outputs: { value: z.number() },
      run: ({ value }) => ({ value: value[0]! }),
    });
    const p = new Pipeline()
      .addComponent("entry", new Entry())
      .addComponent("double", new Double())
      .connect("entry.value", "double.value")
      .connect("double.value", "entry.value");
    expect(Object.keys(p.inputs().entry ?? {})).toEqual(["value"]);
    expect(p.toMermaid()).toContain('  inputs -- "value (greedy variadic)<br/>number" --> c0');
  });

  test("is deterministic and survives a round trip through JSON", () => {
    const p = knownPipeline();
    expect(Pipeline.fromJSON(p.toJSON()).toMermaid()).toBe(p.toMermaid());
  });
});

describe("the published JSON Schema", () => {
  const published = JSON.parse(
    readFileSync(join(import.meta.dirname, "../../../docs/schema/pipeline.schema.json"), "utf8"),
  );

  test("docs/schema/pipeline.schema.json is up to date (run `pnpm schema` when this fails)", () => {
    expect(published).toEqual(pipelineDocumentJSONSchema());
  });

  test("accepts what Pipeline.toJSON writes and refuses what the loader refuses", () => {
    const fromPublished = z.fromJSONSchema(published);
    const doc = knownPipeline().toJSON();
    expect(fromPublished.safeParse(doc).success).toBe(true);
    for (const bad of [
      { ...doc, version: 2 },
      { ...doc, extra: 1 },
      { ...doc, components: { "a.b": { type: "x" } } },
      { ...doc, connections: [{ sender: "a.b" }] },
    ]) {
      expect(fromPublished.safeParse(bad).success).toBe(false);
      expect(pipelineDocumentSchema.safeParse(bad).success).toBe(false);
    }
  });
});
