import { DeserializationError, defineComponent, Pipeline, SuperComponent } from "@junction/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";

const Add = defineComponent({
  type: "test.scdoc.Add",
  params: z.object({ add: z.number().default(1) }),
  inputs: { value: z.number() },
  outputs: { result: z.number() },
  run: ({ value }, { params }) => ({ result: value + params.add }),
});

function nested(levels: number): Pipeline {
  let pipeline = new Pipeline().addComponent("add", new Add({ add: 1 }));
  for (let level = 1; level < levels; level++) {
    pipeline = new Pipeline().addComponent(
      `level${level}`,
      new SuperComponent({
        pipeline,
        inputMapping: { value: [`${level === 1 ? "add" : `level${level - 1}`}.value`] },
      }),
    );
  }
  return pipeline;
}

describe("SuperComponent serialization", () => {
  it("embeds the inner document and the mappings, and round-trips", async () => {
    const inner = new Pipeline()
      .addComponent("first", new Add({ add: 2 }))
      .addComponent("second", new Add({ add: 10 }))
      .connect("first.result", "second.value");
    const outer = new Pipeline().addComponent(
      "sc",
      new SuperComponent({
        pipeline: inner,
        inputMapping: { x: ["first.value"] },
        outputMapping: { "second.result": "y", "first.result": "partial" },
      }),
    );
    const doc = outer.toJSON();
    expect(doc.components.sc).toEqual({
      type: "junction.SuperComponent",
      init_parameters: {
        pipeline: inner.toJSON(),
        inputMapping: { x: ["first.value"] },
        outputMapping: { "second.result": "y", "first.result": "partial" },
      },
    });
    const loaded = Pipeline.fromJSON(JSON.parse(JSON.stringify(doc)));
    expect(loaded.toJSON()).toEqual(doc);
    expect(await loaded.run({ sc: { x: 1 } })).toEqual(await outer.run({ sc: { x: 1 } }));
    expect(await loaded.run({ sc: { x: 1 } })).toEqual({ sc: { y: 13, partial: 3 } });
  });

  it("round-trips several levels of nesting", async () => {
    const pipeline = nested(5);
    const doc = pipeline.toJSON();
    const loaded = Pipeline.fromJSON(doc);
    expect(loaded.toJSON()).toEqual(doc);
    expect(await loaded.run({ value: 1 })).toEqual({ level4: { result: 2 } });
  });

  it("reports the problems of an invalid nested document with their full paths", () => {
    const doc = nested(3).toJSON() as unknown as Record<string, any>;
    const inner = doc.components.level2.init_parameters.pipeline.components.level1.init_parameters.pipeline;
    inner.components.add.type = "test.scdoc.Missing";
    inner.connections.push({ sender: "ghost.out", receiver: "add.value" });
    let error: unknown;
    try {
      Pipeline.fromJSON(doc);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(DeserializationError);
    const paths = (error as DeserializationError).issues.map((issue) => issue.path.join("."));
    const prefix = "components.level2.init_parameters.pipeline.components.level1.init_parameters.pipeline";
    expect(paths).toContain(`${prefix}.components.add.type`);
    expect(paths).toContain(`${prefix}.connections.0.sender`);
  });

  it("reports mappings that do not fit the loaded pipeline under init_parameters", () => {
    const doc = nested(2).toJSON() as unknown as Record<string, any>;
    doc.components.level1.init_parameters.inputMapping = { value: ["add.nope"] };
    expect(() => Pipeline.fromJSON(doc)).toThrow(
      /components\.level1\.init_parameters\.inputMapping\.value\[0\]: "add" has no input socket "nope"/,
    );
  });

  it("refuses a nested document that is not a pipeline document", () => {
    const doc = nested(2).toJSON() as unknown as Record<string, any>;
    doc.components.level1.init_parameters.pipeline = "rm -rf /";
    expect(() => Pipeline.fromJSON(doc)).toThrow(/components\.level1\.init_parameters\.pipeline/);
  });

  it("refuses nesting deeper than the document limits before building anything", () => {
    let doc: Record<string, unknown> = nested(1).toJSON() as unknown as Record<string, unknown>;
    for (let level = 0; level < 40; level++) {
      doc = {
        version: 1,
        components: {
          sc: { type: "junction.SuperComponent", init_parameters: { pipeline: doc } },
        },
        connections: [],
      };
    }
    expect(() => Pipeline.fromJSON(doc)).toThrow(/nest|deep|depth/i);
  });
});
