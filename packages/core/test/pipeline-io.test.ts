import {
  DeserializationError,
  defineComponent,
  defineNamedType,
  describePipelineIO,
  Pipeline,
  PipelineValidationError,
  pipelineDocumentJSONSchema,
} from "@junction/core";
import { describe, expect, test } from "vitest";
import { z } from "zod";

/** A class with a wire form (like ChatMessage) and one without (like Tools). */
class Note {
  constructor(readonly text: string) {}
  toJSON(): { text: string } {
    return { text: this.text };
  }
}
const noteSchema = defineNamedType("io_test.Note", z.instanceof(Note), {
  wire: {
    jsonSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    decode: (json) => {
      const text = (json as { text?: unknown }).text;
      if (typeof text !== "string") throw new Error("a note needs a string `text`.");
      return new Note(text);
    },
  },
});
class Handle {}
const handleSchema = defineNamedType("io_test.Handle", z.instanceof(Handle));

const Upper = defineComponent({
  type: "io_test.Upper",
  inputs: { text: z.string(), handle: handleSchema.optional() },
  outputs: { text: z.string() },
  run: ({ text }) => ({ text: text.toUpperCase() }),
});
const Exclaim = defineComponent({
  type: "io_test.Exclaim",
  inputs: { text: z.string(), times: z.number().default(1) },
  outputs: { text: z.string() },
  run: ({ text, times }) => ({ text: `${text}${"!".repeat(times)}` }),
});
const Annotate = defineComponent({
  type: "io_test.Annotate",
  inputs: { notes: z.array(noteSchema), prefix: z.string() },
  outputs: { note: noteSchema, count: z.number() },
  run: ({ notes, prefix }) => ({
    note: new Note(`${prefix}${notes.map((note) => note.text).join(",")}`),
    count: notes.length,
  }),
});
const NeedsHandle = defineComponent({
  type: "io_test.NeedsHandle",
  inputs: { handle: handleSchema },
  outputs: { ok: z.boolean() },
  run: () => ({ ok: true }),
});

function chain(): Pipeline {
  const p = new Pipeline();
  p.addComponent("upper", new Upper()).addComponent("exclaim", new Exclaim());
  p.connect("upper.text", "exclaim.text");
  return p;
}

describe("declared inputs and outputs", () => {
  test("callers use friendly names; the document keeps them and loads them back", async () => {
    const p = chain().declareIO({
      inputs: { phrase: "upper.text", volume: "exclaim.times" },
      outputs: { shout: "exclaim.text", upper: "upper.text" },
    });
    const doc = p.toJSON();
    expect(doc.inputs).toEqual({ phrase: "upper.text", volume: "exclaim.times" });
    expect(doc.outputs).toEqual({ shout: "exclaim.text", upper: "upper.text" });
    const loaded = Pipeline.fromJSON(JSON.parse(JSON.stringify(doc)));
    expect(loaded.toJSON()).toEqual(doc);

    const io = describePipelineIO(loaded);
    const outputs = await loaded.run(io.toRunInputs({ phrase: "hi", volume: 2 }), {
      includeOutputsFrom: [...io.includeOutputsFrom],
    });
    // "upper.text" feeds exclaim, and is still reported because it is declared.
    expect(io.fromRunOutputs(outputs)).toEqual({ shout: "HI!!", upper: "HI" });
  });

  test("a document without inputs/outputs is written exactly as before", () => {
    const doc = chain().toJSON();
    expect(Object.keys(doc)).toEqual([
      "version",
      "metadata",
      "max_runs_per_component",
      "connection_type_validation",
      "components",
      "connections",
    ]);
  });

  test("loading checks every declared address against the open sockets, listing every problem", () => {
    const doc = {
      ...chain().toJSON(),
      inputs: {
        phrase: "upper.text",
        again: "upper.text",
        wired: "exclaim.text",
        missing: "nobody.text",
        typo: "upper.txt",
        "bad name": "upper.text",
      },
      outputs: { out: ["exclaim.text", "exclaim.nothing"], short: "exclaim" },
    };
    let error: unknown;
    try {
      Pipeline.fromJSON(doc);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(DeserializationError);
    const issues = (error as DeserializationError).issues.map(
      (issue) => `${issue.path.join(".")}: ${issue.message}`,
    );
    // Names and addresses are checked by the document schema first.
    expect(issues.join("\n")).toContain("inputs.bad name");
    expect(issues.join("\n")).toContain("outputs.short");

    const shapeOk = {
      ...doc,
      inputs: { ...doc.inputs, "bad name": undefined },
      outputs: { out: doc.outputs.out },
    };
    delete (shapeOk.inputs as Record<string, unknown>)["bad name"];
    let second: unknown;
    try {
      Pipeline.fromJSON(shapeOk);
    } catch (caught) {
      second = caught;
    }
    const messages = (second as DeserializationError).issues.map(
      (issue) => `${issue.path.join(".")}: ${issue.message}`,
    );
    expect(messages).toEqual([
      'inputs.again: "upper.text" is already the target of "phrase". Each socket takes one declared input.',
      'inputs.wired: "exclaim.text" is connected to another component\'s output, so a caller cannot give it. Declare an open input socket.',
      'inputs.missing: unknown component "nobody". Components: "upper", "exclaim".',
      'inputs.typo: "upper" (io_test.Upper) has no input socket "txt". Did you mean "text"? Its input sockets: "text", "handle".',
      'outputs.out.1: "exclaim" (io_test.Exclaim) has no output socket "nothing". Its output sockets: "text".',
    ]);
  });

  test("declared inputs must cover every mandatory open socket", () => {
    expect(() => chain().declareIO({ inputs: { volume: "exclaim.times" } })).toThrow(
      'the mandatory input socket "upper.text" is not declared',
    );
  });

  test("a list of inputs fans one value out; a list of outputs reports the first that produced a value", async () => {
    const Pick = defineComponent({
      type: "io_test.Pick",
      inputs: { text: z.string(), loud: z.boolean() },
      outputs: { loud: z.string(), quiet: z.string() },
      run: ({ text, loud }) => (loud ? { loud: text } : { quiet: text }),
    });
    const p = new Pipeline();
    p.addComponent("pick", new Pick())
      .addComponent("upper", new Upper())
      .addComponent("exclaim", new Exclaim());
    p.connect("pick.loud", "upper.text");
    p.declareIO({
      inputs: { text: ["pick.text", "exclaim.text"], loud: "pick.loud" },
      outputs: { answer: ["upper.text", "pick.quiet"], echo: "exclaim.text" },
    });
    const io = describePipelineIO(p);
    const run = async (request: Record<string, unknown>) =>
      io.fromRunOutputs(
        await p.run(io.toRunInputs(request), { includeOutputsFrom: [...io.includeOutputsFrom] }),
      );
    expect(await run({ text: "hey", loud: true })).toEqual({ answer: "HEY", echo: "hey!" });
    expect(await run({ text: "hey", loud: false })).toEqual({ answer: "hey", echo: "hey!" });
  });
});

describe("describePipelineIO: request and response schemas for remote callers", () => {
  test("declared: one property per friendly name; named types use their wire form", () => {
    const p = new Pipeline();
    p.addComponent("annotate", new Annotate());
    p.declareIO({
      inputs: { notes: "annotate.notes", prefix: "annotate.prefix" },
      outputs: { note: "annotate.note" },
    });
    const io = describePipelineIO(p);
    const note = { type: "object", properties: { text: { type: "string" } }, required: ["text"] };
    expect(io.inputSchema).toEqual({
      type: "object",
      properties: { notes: { type: "array", items: note }, prefix: { type: "string" } },
      required: ["notes", "prefix"],
      additionalProperties: false,
    });
    expect(io.outputSchema).toEqual({ type: "object", properties: { note } });
  });

  test("nested (nothing declared): { component: { socket } }; optional sockets JSON cannot carry are left out", () => {
    const io = describePipelineIO(chain());
    expect(io.inputSchema).toEqual({
      type: "object",
      properties: {
        upper: {
          type: "object",
          properties: { text: { type: "string" } },
          additionalProperties: false,
          required: ["text"],
        },
        exclaim: {
          type: "object",
          properties: { times: { type: "number", default: 1 } },
          additionalProperties: false,
        },
      },
      required: ["upper"],
      additionalProperties: false,
    });
    expect(io.outputSchema).toEqual({
      type: "object",
      properties: { exclaim: { type: "object", properties: { text: { type: "string" } } } },
    });
  });

  test("JSON values of named types are decoded before the run; bad ones are refused with their path", async () => {
    const p = new Pipeline();
    p.addComponent("annotate", new Annotate());
    const io = describePipelineIO(p);
    const outputs = await p.run(
      io.toRunInputs({ annotate: { notes: [{ text: "a" }, { text: "b" }], prefix: "> " } }),
    );
    expect(outputs.annotate?.note).toBeInstanceOf(Note);
    expect(JSON.parse(JSON.stringify(io.fromRunOutputs(outputs)))).toEqual({
      annotate: { note: { text: "> a,b" }, count: 2 },
    });

    let error: unknown;
    try {
      io.toRunInputs({ annotate: { notes: [{ text: "a" }, { txt: 1 }], prefix: "x", extra: 1 } });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(PipelineValidationError);
    expect((error as PipelineValidationError).issues).toEqual([
      { path: ["annotate", "notes", 1], message: "not a valid io_test.Note: a note needs a string `text`." },
      {
        path: ["annotate", "extra"],
        message:
          '"annotate.extra" is not an input a caller can give. Inputs: "annotate.notes", "annotate.prefix".',
      },
    ]);
  });

  test("a mandatory socket whose type cannot travel as JSON is an error naming it", () => {
    const p = new Pipeline();
    p.addComponent("needs", new NeedsHandle()).addComponent("upper", new Upper());
    expect(() => describePipelineIO(p, { where: 'serve: pipeline "x"' })).toThrow(
      'serve: pipeline "x": the pipeline cannot be called with JSON:\n  - inputs.needs.handle: the mandatory input socket "needs.handle" cannot be given by a remote caller: "io_test.Handle" values cannot travel as JSON.',
    );
  });

  test("declared unknown names and missing required inputs are refused", () => {
    const p = chain().declareIO({ inputs: { phrase: "upper.text" } });
    const io = describePipelineIO(p);
    expect(() => io.toRunInputs({ phrse: "x" })).toThrow(PipelineValidationError);
    try {
      io.toRunInputs({ phrse: "x" });
    } catch (error) {
      expect((error as PipelineValidationError).issues.map((issue) => issue.message)).toEqual([
        'unknown input "phrse". Inputs: "phrase".',
        'the input "phrase" is required.',
      ]);
    }
  });
});

test("the published document schema describes inputs and outputs and keeps them optional", () => {
  const schema = pipelineDocumentJSONSchema() as {
    properties: Record<string, unknown>;
    required?: string[];
  };
  expect(Object.keys(schema.properties)).toContain("inputs");
  expect(Object.keys(schema.properties)).toContain("outputs");
  expect(schema.required ?? []).not.toContain("inputs");
});

describe("a flat request to an undeclared pipeline", () => {
  test("a socket name at the top is answered with the nested form it belongs in", () => {
    const Echo = defineComponent({
      type: "io_test.Echo",
      inputs: { messages: z.array(z.string()) },
      outputs: { messages: z.array(z.string()) },
      run: ({ messages }) => ({ messages }),
    });
    const io = describePipelineIO(new Pipeline().addComponent("kb-agent", new Echo()));
    expect(() => io.toRunInputs({ messages: ["hi"] })).toThrow(
      /write \{ "kb-agent": \{ "messages": \.\.\. \} \}\. Inputs: .*kb-agent\.messages/,
    );
    expect(io.toRunInputs({ "kb-agent": { messages: ["hi"] } })).toEqual({
      "kb-agent": { messages: ["hi"] },
    });
  });
});
