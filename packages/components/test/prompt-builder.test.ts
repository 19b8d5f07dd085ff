import { PromptBuilder, PromptRenderError } from "@junction/components";
import { ComponentError, getDefaultLogger, MemoryLogger, setDefaultLogger } from "@junction/core";
import { ChatMessage } from "@junction/llm";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { roundTrip } from "./support/round-trip.js";

/** Ported from the reference's test/components/builders/test_prompt_builder.py (Jinja → Liquid). */

describe("PromptBuilder sockets", () => {
  test("the template's variables are mandatory inputs, plus the optional overrides", () => {
    const builder = new PromptBuilder({ template: "This is a {{ variable }}" });
    expect(Object.keys(builder.inputSockets).sort()).toEqual(["template", "template_variables", "variable"]);
    expect(builder.inputSockets.variable?.mandatory).toBe(true);
    expect(builder.inputSockets.template?.mandatory).toBe(false);
    expect(builder.inputSockets.template_variables?.mandatory).toBe(false);
    expect(Object.keys(builder.outputSockets)).toEqual(["prompt"]);
  });

  test("explicit variables replace the ones found in the template", () => {
    const builder = new PromptBuilder({
      template: "Hello, {{ var1 }}, {{ var2 }}!",
      variables: ["var1", "var2", "var3"],
    });
    expect(Object.keys(builder.inputSockets).sort()).toEqual([
      "template",
      "template_variables",
      "var1",
      "var2",
      "var3",
    ]);
  });

  test("only the listed required variables are mandatory; the others default to an empty string", async () => {
    const builder = new PromptBuilder({ template: "{{ a }}-{{ b }}", requiredVariables: ["a"] });
    expect(builder.inputSockets.a?.mandatory).toBe(true);
    expect(builder.inputSockets.b?.mandatory).toBe(false);
    expect(await builder.run({ a: "x" })).toEqual({ prompt: "x-" });
  });

  test("assigned and loop variables are not inputs", () => {
    const template = `{% if existing_documents != nil %}{% assign existing_doc_len = existing_documents | size %}{% else %}{% assign existing_doc_len = 0 %}{% endif %}
{% for doc in docs %}<document reference="{{ forloop.index | plus: existing_doc_len }}">{{ doc.content }}</document>{% endfor %}`;
    const builder = new PromptBuilder({ template });
    expect(Object.keys(builder.inputSockets).sort()).toEqual([
      "docs",
      "existing_documents",
      "template",
      "template_variables",
    ]);
  });

  test("variables named like the override sockets are rejected", () => {
    expect(() => new PromptBuilder({ template: "{{ template }}" })).toThrow(
      /reserved for the runtime overrides/,
    );
  });
});

describe("PromptBuilder run", () => {
  const previous = getDefaultLogger();
  beforeEach(() => setDefaultLogger(new MemoryLogger()));
  afterEach(() => setDefaultLogger(previous));

  test("renders the variables", async () => {
    const builder = new PromptBuilder({ template: "This is a {{ variable }}" });
    expect(await builder.run({ variable: "test" })).toEqual({ prompt: "This is a test" });
  });

  test("template_variables provide and override values", async () => {
    const builder = new PromptBuilder({ template: "This is a {{ variable }}", requiredVariables: null });
    expect(await builder.run({ template_variables: { variable: "test" } })).toEqual({
      prompt: "This is a test",
    });
    expect(
      await builder.run({ variable: "test", template_variables: { variable: "test_from_template_var" } }),
    ).toEqual({
      prompt: "This is a test_from_template_var",
    });
  });

  test("a template without variables", async () => {
    const builder = new PromptBuilder({ template: "This is a template without input" });
    expect(await builder.run({})).toEqual({ prompt: "This is a template without input" });
  });

  test("missing optional inputs render as empty", async () => {
    const builder = new PromptBuilder({ template: "This is a {{ variable }}", requiredVariables: null });
    expect(await builder.run({})).toEqual({ prompt: "This is a " });
  });

  test("missing required inputs are reported together", async () => {
    const builder = new PromptBuilder({ template: "This is a {{ foo }}, not a {{ bar }}" });
    await expect(builder.run({ bar: "bar" })).rejects.toThrow(/foo/);
    const error = await builder.run({}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ComponentError);
    expect((error as ComponentError).issues.map((issue) => issue.path[0]).sort()).toEqual(["bar", "foo"]);
  });

  test("a runtime template replaces the configured one", async () => {
    const builder = new PromptBuilder({ template: "Hello, {{ name }}!" });
    expect(await builder.run({ template: "Hello, {{ var1 }}{{ name }}!!", name: "John" })).toEqual({
      prompt: "Hello, John!!",
    });
    expect(
      await builder.run({
        template: "Hello, {{ var1 }} {{ name }}!",
        name: "John",
        template_variables: { var1: "Big" },
      }),
    ).toEqual({ prompt: "Hello, Big John!" });
  });

  test("a runtime template that does not parse → PromptRenderError", async () => {
    const builder = new PromptBuilder({ template: "Hello, {{ name }}!" });
    const error = await builder
      .run({ template: "Hello, {{ name }!", name: "John" })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PromptRenderError);
    expect((error as PromptRenderError).code).toBe("PROMPT_RENDER_ERROR");
    expect((error as PromptRenderError).message).toContain("the runtime template does not parse");
  });

  test("a template that does not parse fails at construction", () => {
    expect(() => new PromptBuilder({ template: "Hello, {{ name }!" })).toThrow(ComponentError);
    expect(() => new PromptBuilder({ template: "{% if x %}open" })).toThrow(/template does not parse/);
  });

  test("lists and maps print as JSON, null prints as nothing", async () => {
    const builder = new PromptBuilder({
      template: "{{ list }} {{ map }} [{{ nothing }}] {{ n }} {{ flag }}",
    });
    expect(await builder.run({ list: ["a", 1], map: { k: "v" }, nothing: null, n: 2.5, flag: true })).toEqual(
      {
        prompt: '["a",1] {"k":"v"} [] 2.5 true',
      },
    );
  });

  test("documents and chat messages are readable as data", async () => {
    const builder = new PromptBuilder({
      template:
        "{% for doc in documents %}{{ forloop.index }}. {{ doc.content }}\n{% endfor %}Q: {{ question.text }} ({{ question.role }})",
    });
    const result = await builder.run({
      documents: [{ content: "first" }, { content: "second" }],
      question: ChatMessage.fromUser("What?"),
    });
    expect(result.prompt).toBe("1. first\n2. second\nQ: What? (user)");
  });

  test("Liquid filters work; unknown filters fail at construction", async () => {
    const builder = new PromptBuilder({ template: "{{ names | join: ', ' | upcase }} ({{ names | size }})" });
    expect(await builder.run({ names: ["a", "b"] })).toEqual({ prompt: "A, B (2)" });
    expect(() => new PromptBuilder({ template: "{{ name | no_such_filter }}" })).toThrow(/no_such_filter/);
  });
});

describe("PromptBuilder warnings", () => {
  const previous = getDefaultLogger();
  afterEach(() => setDefaultLogger(previous));

  test("warns when every variable is made optional explicitly, not by default", () => {
    const logger = new MemoryLogger();
    setDefaultLogger(logger);
    new PromptBuilder({ template: "This is a {{ variable }}" });
    expect(logger.messages("warn")).toEqual([]);
    new PromptBuilder({ template: "This is a {{ variable }}", requiredVariables: null });
    expect(logger.messages("warn")[0]).toContain("requiredVariables is null");
  });
});

describe("PromptBuilder serialization", () => {
  test("init_parameters are the params; the copy renders the same", async () => {
    const builder = new PromptBuilder({
      template: "This is a {{ variable }}",
      variables: ["var1", "var2"],
      requiredVariables: ["var1", "var3"],
    });
    const { initParameters, copy } = roundTrip(builder);
    expect(initParameters).toEqual({
      template: "This is a {{ variable }}",
      variables: ["var1", "var2"],
      requiredVariables: ["var1", "var3"],
    });
    expect(Object.keys(copy.inputSockets).sort()).toEqual(Object.keys(builder.inputSockets).sort());
    const inputs = { var1: "a", var3: "c", template_variables: { variable: "x" } };
    expect(await copy.run(inputs)).toEqual(await builder.run(inputs));
  });

  test("defaults are written out", () => {
    expect(roundTrip(new PromptBuilder({ template: "{{ x }}" })).initParameters).toEqual({
      template: "{{ x }}",
      requiredVariables: "*",
    });
  });
});
