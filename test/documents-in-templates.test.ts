import { ConditionalRouter, PromptBuilder } from "@junction/components";
import { ByteStream, Document, documentSchema } from "@junction/documents";
import { describe, expect, test } from "vitest";
import { z } from "zod";

/** DESIGN §11: templates and routers see a Document as { id, content, meta, score, embedding, blob }. */
const documents = [
  new Document({
    content: "Paris is in France.",
    meta: { url: "https://a.example", lang: "en" },
    score: 0.9,
  }),
  new Document({
    content: "Berlin ist in Deutschland.",
    meta: { url: "https://b.example", lang: "de" },
    blob: ByteStream.fromString("x", { mimeType: "text/plain" }),
  }),
];

describe("Documents in templates and routers", () => {
  test("Liquid reads doc.content, doc.meta.url, doc.score and doc.blob.mime_type", async () => {
    const builder = new PromptBuilder({
      template:
        "{% for d in documents %}{{ d.content }} ({{ d.meta.url }}, {{ d.score }}, {{ d.blob.mime_type }})\n{% endfor %}{{ documents[0].id | size }}",
    });
    expect(await builder.run({ documents })).toEqual({
      prompt:
        "Paris is in France. (https://a.example, 0.9, )\nBerlin ist in Deutschland. (https://b.example, , text/plain)\n64",
    });
  });

  test("a CEL route on documents[0].meta.lang passes the original Document instances on", async () => {
    const router = new ConditionalRouter({
      routes: [
        {
          condition: 'documents.size() > 0 && documents[0].meta.lang == "en"',
          output: "documents",
          outputName: "english",
          outputType: z.array(documentSchema),
        },
        {
          condition: "true",
          output: 'documents.filter(d, d.meta.lang != "en")',
          outputName: "other",
          outputType: z.array(documentSchema),
        },
      ],
      validateOutputType: true,
    });
    const english = (await router.run({ documents })) as { english?: Document[] };
    expect(english.english?.[1]).toBe(documents[1]);
    const other = (await router.run({ documents: [documents[1]] })) as { other?: Document[] };
    expect(other.other).toEqual([documents[1]]);
    expect(other.other?.[0]).toBe(documents[1]);
  });
});
