import { ChatPromptBuilder, ConditionalRouter, PromptBuilder } from "@junction/components";
import { expressionView } from "@junction/core";
import { ChatMessage } from "@junction/llm";
import { describe, expect, test } from "vitest";
import { z } from "zod";

/**
 * A class whose storage form (`toJSON`) differs from what template authors expect, as a `Document`'s
 * flattened `to_dict` does: templates and routers must see its expression view.
 */
class Item {
  constructor(
    readonly id: string,
    readonly meta: Record<string, unknown>,
    readonly content?: string,
  ) {}

  toJSON(): Record<string, unknown> {
    return { ...this.meta, id: this.id, content: this.content ?? null };
  }

  [expressionView](): Record<string, unknown> {
    return { id: this.id, content: this.content ?? null, meta: this.meta };
  }
}

const items = [
  new Item("a", { url: "https://a.example", lang: "en" }, "Alpha"),
  new Item("b", { lang: "fr" }),
];

describe("values with an expression view", () => {
  test("Liquid templates read the view, not toJSON", async () => {
    const builder = new PromptBuilder({
      template:
        "{% for d in documents %}[{{ d.id }}] {{ d.content }} {{ d.meta.url }}|{% endfor %}{{ documents[1].content }}",
    });
    expect(await builder.run({ documents: items })).toEqual({
      prompt: "[a] Alpha https://a.example|[b]  |",
    });
  });

  test("chat templates read the view too", async () => {
    const builder = new ChatPromptBuilder({ template: [ChatMessage.fromUser("{{ doc.meta.lang }}")] });
    const result = (await builder.run({ doc: items[1] })) as { prompt: ChatMessage[] };
    expect(result.prompt[0]?.text).toBe("fr");
  });

  test("CEL routes read the view, and a value passed through is the original instance", async () => {
    const router = new ConditionalRouter({
      routes: [
        {
          condition: 'documents.size() > 0 && documents[0].meta.lang == "en"',
          output: 'documents.filter(d, d.meta.lang == "en")',
          outputName: "english",
          outputType: z.array(z.instanceof(Item)),
        },
        {
          condition: "true",
          output: "documents",
          outputName: "other",
          outputType: z.array(z.instanceof(Item)),
        },
      ],
    });
    const english = (await router.run({ documents: items })) as { english?: Item[] };
    expect(english.english).toEqual([items[0]]);
    expect(english.english?.[0]).toBe(items[0]);
    const other = (await router.run({ documents: [items[1]] })) as { other?: Item[] };
    expect(other.other?.[0]).toBe(items[1]);
  });
});
