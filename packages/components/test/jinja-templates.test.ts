import { ChatPromptBuilder, PromptBuilder, PromptRenderError } from "@junction/components";
import { ComponentError } from "@junction/core";
import { ChatMessage } from "@junction/llm";
import { describe, expect, test } from "vitest";

/**
 * Haystack's templates are Jinja; Junction's are Liquid. A Haystack user's Jinja is answered with its
 * Liquid spelling — also the Jinja that Liquid would parse and read differently.
 */

function constructionError(template: string): string {
  try {
    new PromptBuilder({ template });
  } catch (error) {
    expect(error).toBeInstanceOf(ComponentError);
    return (error as Error).message;
  }
  throw new Error(`the template was accepted: ${template}`);
}

describe("Jinja that does not parse as Liquid gets its Liquid spelling", () => {
  test.each([
    ["{{ names | join(', ') }}", "`| join: ', '`"],
    ["{% set n = 3 %}{{ n }}", "`{% assign x = … %}`"],
    ["{% if a %}1{% elif b %}2{% endif %}", "`{% elsif %}`"],
    ["{{ documents|length }}", "`| size`"],
    ["{{ question|upper }}", "`| upcase`"],
    ["{{ meta|tojson }}", "`| json`"],
  ])("%s", (template, liquid) => {
    const message = constructionError(template);
    expect(message).toContain("params.template: the template does not parse");
    expect(message).toContain("Templates are Liquid, not Jinja");
    expect(message).toContain(`write ${liquid}`);
  });

  test("a runtime template too (PromptRenderError on the template socket)", async () => {
    const builder = new PromptBuilder({ template: "{{ question }}" });
    const failure = await builder.run({ question: "q", template: "{{ documents|length }}" }).catch((e) => e);
    expect(failure).toBeInstanceOf(PromptRenderError);
    expect(failure.message).toContain("the runtime template does not parse");
    expect(failure.message).toContain("write `| size` for `| length`");
  });
});

describe("Jinja that Liquid would read differently is refused", () => {
  test.each([
    // Liquid would make `loop` a required input and print nothing for it.
    ["{% for d in documents %}{{ loop.index }}. {{ d.content }}{% endfor %}", "`forloop.index`"],
    // Liquid would make `is` and `none` inputs and take the branch either way.
    ["{% if answer is not none %}{{ answer }}{% endif %}", "`x != nil`"],
    ["{% if answer is defined %}{{ answer }}{% endif %}", "`x != nil`"],
    // Liquid would print nothing.
    ["{{ question[:5] }}", "`| slice: 0, 5`"],
  ])("%s", (template, liquid) => {
    const message = constructionError(template);
    expect(message).toContain("where this Jinja would not mean what it says");
    expect(message).toContain(`write ${liquid}`);
  });

  test("in a ChatPromptBuilder's message templates, naming the message", () => {
    expect(
      () =>
        new ChatPromptBuilder({
          template: [
            ChatMessage.fromSystem("Answer briefly."),
            ChatMessage.fromUser("{% for d in documents %}{{ loop.index }}: {{ d.content }}{% endfor %}"),
          ],
        }),
    ).toThrow(/message 1 \(user\) does not parse: .*`forloop\.index`/);
  });
});

describe("what is not Jinja is left alone", () => {
  test("Haystack's RAG template is the same in Liquid and renders", async () => {
    const template = [
      "Given the following information, answer the question.",
      "Context:",
      "{% for document in documents %}",
      "    {{ document.content }}",
      "{% endfor %}",
      "Question: {{question}}",
      "Answer:",
    ].join("\n");
    const { prompt } = await new PromptBuilder({ template }).run({
      documents: [{ id: "1", content: "Paris is in France.", meta: {} }],
      question: "Where is Paris?",
    });
    expect(prompt).toContain("    Paris is in France.");
    expect(prompt).toContain("Question: Where is Paris?");
  });

  test("the prompt's own text and string literals may say anything", async () => {
    const template =
      'Explain loop.index, `x is not none`, s[:5] and {{ "a | join(b) is none [1:2]" }} to {{ name | default: "you" }}.';
    const { prompt } = await new PromptBuilder({ template }).run({ name: "Ada" });
    expect(prompt).toBe("Explain loop.index, `x is not none`, s[:5] and a | join(b) is none [1:2] to Ada.");
  });

  test("Liquid's own spellings are accepted", async () => {
    const builder = new PromptBuilder({
      template:
        "{% for d in docs %}{{ forloop.index }}{% if d != nil %}:{{ d | slice: 0, 2 }}{% endif %} {% endfor %}",
    });
    expect((await builder.run({ docs: ["abc", "de"] })).prompt).toBe("1:ab 2:de ");
  });
});

describe("hostile templates", () => {
  test("a long template with nothing closed, or a long run of spaces in a tag, is refused at once", () => {
    // The Jinja search reads each tag once (no regular expression that backtracks over the rest of the
    // template): both are refused by the parser, as before the search existed.
    for (const template of [
      "{{".repeat(400_000),
      `{{ a[${" ".repeat(800_000)}}}`,
      `{{ a[${" ".repeat(800_000)}:}}`,
    ]) {
      expect(constructionError(template)).toContain("params.template: the template does not parse");
    }
  });
});
