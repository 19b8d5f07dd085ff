import { inspect } from "node:util";
import {
  createRegistry,
  DeserializationError,
  Pipeline,
  type PipelineDocument,
  Secret,
  SerializationError,
} from "@junction/core";
import { describe, expect, test } from "vitest";
import { AddFixedValue, Double, Label, Sum } from "./serialization-fixtures.js";

function buildPipeline(): Pipeline {
  const p = new Pipeline({ maxRunsPerComponent: 7, metadata: { owner: "tests", tags: ["a"] } });
  p.addComponent("adder", new AddFixedValue({ add: 2 }))
    .addComponent("double", new Double())
    .addComponent("sum", new Sum())
    .addComponent("label", new Label({ prefix: "n=" }));
  p.connect("adder.result", "double.value");
  p.connect("adder.result", "sum.values");
  p.connect("double.value", "sum.values");
  p.connect("sum.total", "label.value");
  return p;
}

const expected: PipelineDocument = {
  version: 1,
  metadata: { owner: "tests", tags: ["a"] },
  max_runs_per_component: 7,
  connection_type_validation: true,
  components: {
    adder: { type: "test.doc.AddFixedValue", init_parameters: { add: 2 } },
    double: { type: "test.doc.Double", init_parameters: {} },
    sum: { type: "test.doc.Sum", init_parameters: {} },
    label: {
      type: "test.doc.Label",
      init_parameters: { prefix: "n=", apiKey: { type: "env_var", env_vars: ["LABEL_KEY"], strict: true } },
    },
  },
  connections: [
    { sender: "adder.result", receiver: "double.value" },
    { sender: "adder.result", receiver: "sum.values" },
    { sender: "double.value", receiver: "sum.values" },
    { sender: "sum.total", receiver: "label.value" },
  ],
};

function loadError(run: () => unknown): DeserializationError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DeserializationError);
    return error as DeserializationError;
  }
  throw new Error("expected a DeserializationError");
}

function paths(error: { issues: readonly { path: readonly (string | number)[] }[] }): string[] {
  return error.issues.map((issue) =>
    issue.path
      .map((part, index) => (typeof part === "number" ? `[${part}]` : index === 0 ? part : `.${part}`))
      .join(""),
  );
}

describe("Pipeline.toJSON / fromJSON", () => {
  test("writes the document of DESIGN §4, connections fully qualified in connect order", () => {
    expect(buildPipeline().toJSON()).toEqual(expected);
    expect(JSON.parse(JSON.stringify(buildPipeline()))).toEqual(expected);
  });

  test("toJSON(fromJSON(doc)) deep-equals doc", () => {
    const doc = JSON.parse(JSON.stringify(expected));
    expect(Pipeline.fromJSON(doc).toJSON()).toEqual(expected);
  });

  test("a loaded pipeline runs exactly like the original", async () => {
    const original = buildPipeline();
    const loaded = Pipeline.fromJSON(JSON.parse(JSON.stringify(original.toJSON())));
    for (const value of [0, 1, 41]) {
      const options = { includeOutputsFrom: ["sum"] };
      expect(await loaded.run({ adder: { value } }, options)).toEqual(
        await original.run({ adder: { value } }, options),
      );
    }
    expect(await loaded.run({ adder: { value: 1 } })).toEqual({ label: { text: "n=9!" } });
  });

  test("short connection addresses load and are written back fully qualified", () => {
    const doc = {
      ...expected,
      connections: [{ sender: "adder", receiver: "double" }],
    };
    expect(Pipeline.fromJSON(doc).toJSON().connections).toEqual([
      { sender: "adder.result", receiver: "double.value" },
    ]);
  });

  test("defaults fill settings that a document leaves out", () => {
    const p = Pipeline.fromJSON({ version: 1 });
    expect(p.toJSON()).toEqual({
      version: 1,
      metadata: {},
      max_runs_per_component: 100,
      connection_type_validation: true,
      components: {},
      connections: [],
    });
  });

  test("a token secret refuses to serialize and never shows in the error", () => {
    const p = new Pipeline().addComponent(
      "label",
      new Label({ prefix: "x", apiKey: Secret.fromToken("sk-top-secret") }),
    );
    let caught: unknown;
    try {
      p.toJSON();
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SerializationError);
    expect(paths(caught as SerializationError)).toEqual(["components.label.init_parameters.apiKey"]);
    expect(inspect(caught, { depth: 10 })).not.toContain("sk-top-secret");
    expect(() => p.toYAML()).toThrowError(/Pipeline.toYAML/);
  });

  test("non-JSON metadata is refused with its path", () => {
    const p = new Pipeline({ metadata: { when: new Date(0), ok: 1 } });
    expect(() => p.toJSON()).toThrowError(/metadata\.when/);
  });

  test("types resolve only through the given registry", () => {
    const empty = createRegistry({ parent: null });
    const error = loadError(() => Pipeline.fromJSON(expected, { registry: empty }));
    expect(paths(error)).toEqual([
      "components.adder.type",
      "components.double.type",
      "components.sum.type",
      "components.label.type",
    ]);
    const own = createRegistry({ parent: null })
      .register(AddFixedValue)
      .register(Double)
      .register(Sum)
      .register(Label);
    expect(Pipeline.fromJSON(expected, { registry: own }).toJSON()).toEqual(expected);
  });
});

describe("loading reports every problem at once, with paths", () => {
  test("shape, version, types, params and connections", () => {
    const doc = {
      version: 2,
      extra: true,
      max_runs_per_component: 0,
      components: {
        adder: { type: "test.doc.AddFixedValue", init_parameters: { add: "two" } },
        ghost: { type: "test.doc.DoesNotExist", init_parameters: {} },
        label: { type: "test.doc.Label", init_parameters: { prefix: "x", apiKey: "sk-literal-key" } },
        double: { type: "test.doc.Double" },
        text: { type: "test.doc.Label", init_parameters: { prefix: "t" } },
      },
      connections: [
        { sender: "ghost.result", receiver: "double.value" },
        { sender: "double.value", receiver: "nowhere.value" },
        { sender: "double.nope", receiver: "text.value" },
        { sender: "text.text", receiver: "double.value" },
        { sender: "double" },
      ],
    };
    const error = loadError(() => Pipeline.fromJSON(doc));
    expect(paths(error)).toEqual([
      "version",
      "max_runs_per_component",
      "connections[4].receiver",
      "",
      "components.adder.init_parameters.add",
      "components.ghost.type",
      "components.label.init_parameters.apiKey",
      "connections[1].receiver",
      "connections[2].sender",
      "connections[3]",
    ]);
    expect(error.message).toMatch(/^Pipeline.fromJSON: cannot load the document \(10 problems\)/);
    expect(error.issues[3]?.message).toMatch(/extra/);
    expect(error.issues[7]?.message).toMatch(/unknown component "nowhere"/);
    expect(error.issues[8]?.message).toMatch(/no output socket "nope"/);
    expect(error.issues[9]?.message).toMatch(/text\.text/);
    expect(inspect(error, { depth: 10 })).not.toContain("sk-literal-key");
  });

  test("a component with a params error still has its connections checked, with did-you-mean", () => {
    const doc = {
      version: 1,
      components: {
        adder: { type: "test.doc.AddFixedValue", init_parameters: { add: "two" } },
        double: { type: "test.doc.Double" },
      },
      connections: [
        { sender: "adder.reslt", receiver: "double.value" },
        { sender: "adder.result", receiver: "duoble.value" },
      ],
    };
    const error = loadError(() => Pipeline.fromJSON(doc));
    expect(paths(error)).toEqual([
      "components.adder.init_parameters.add",
      "connections[0].sender",
      "connections[1].receiver",
    ]);
    expect(error.issues[1]?.message).toContain(
      '"adder" has no output socket "reslt". Did you mean "result"?',
    );
    expect(error.issues[2]?.message).toContain('unknown component "duoble". Did you mean "double"?');
    const typo = loadError(() =>
      Pipeline.fromJSON({ version: 1, components: { d: { type: "test.doc.Dobule" } }, connections: [] }),
    );
    expect(typo.message).toContain(
      'unknown component type "test.doc.Dobule". Did you mean "test.doc.Double"?',
    );
  });

  test("a document that is not an object", () => {
    for (const doc of [null, 3, "pipeline", [1, 2]]) {
      expect(paths(loadError(() => Pipeline.fromJSON(doc)))).toEqual([""]);
    }
  });

  test("a missing version says which version is read", () => {
    const error = loadError(() => Pipeline.fromJSON({ components: {} }));
    expect(error.issues[0]?.message).toMatch(/"version": 1/);
  });

  test("reserved and invalid component names", () => {
    const error = loadError(() =>
      Pipeline.fromJSON({
        version: 1,
        components: { _debug: { type: "test.doc.Double" }, "a.b": { type: "test.doc.Double" } },
      }),
    );
    expect(paths(error).sort()).toEqual(["components._debug", "components.a.b"]);
  });
});

describe("YAML", () => {
  test("round-trips through YAML and reads like JSON", async () => {
    const original = buildPipeline();
    const text = original.toYAML();
    expect(text).toContain("version: 1\n");
    expect(text).toContain("      apiKey:\n        type: env_var\n");
    const loaded = Pipeline.fromYAML(text);
    expect(loaded.toJSON()).toEqual(expected);
    expect(await loaded.run({ adder: { value: 3 } })).toEqual(await original.run({ adder: { value: 3 } }));
  });

  test("YAML 1.1 values stay plain strings and numbers", () => {
    const p = Pipeline.fromYAML(
      "%YAML 1.1\n---\nversion: 1\nmetadata:\n  answer: yes\n  date: 2001-12-14\n  n: 0x1F\n",
    );
    expect(p.metadata).toEqual({ answer: "yes", date: "2001-12-14", n: 31 });
  });

  test("YAML problems are reported with their line", () => {
    const error = loadError(() => Pipeline.fromYAML("version: 1\ncomponents: [1, 2\n"));
    expect(error.message).toMatch(/Pipeline.fromYAML/);
    expect(error.issues[0]?.message).toMatch(/^line \d+, column \d+: /);
  });

  test("document problems in YAML carry document paths", () => {
    const error = loadError(() =>
      Pipeline.fromYAML(
        "version: 1\ncomponents:\n  adder:\n    type: test.doc.AddFixedValue\n    init_parameters: {add: x}\n",
      ),
    );
    expect(paths(error)).toEqual(["components.adder.init_parameters.add"]);
  });
});
