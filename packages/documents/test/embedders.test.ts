import { Document, isEmbeddingProgress, metaValueText, textsToEmbed } from "@junction/documents";
import { describe, expect, it } from "vitest";

describe("embedder text composition", () => {
  it("prints meta values as Haystack's str() does", () => {
    expect(metaValueText("x")).toBe("x");
    expect(metaValueText(true)).toBe("True");
    expect(metaValueText(3)).toBe("3");
    expect(metaValueText(0.5)).toBe("0.5");
    expect(metaValueText(0.00001)).toBe("1e-05");
    expect(metaValueText(new Date("2024-05-01T12:30:00Z"))).toBe("2024-05-01 12:30:00+00:00");
    expect(metaValueText(["a", 1])).toBe('["a",1]');
  });

  it("skips missing, null and inherited meta fields and keys texts by id", () => {
    const doc = new Document({ content: "body", meta: { title: "T", none: null } });
    const texts = textsToEmbed([doc], {
      prefix: "<",
      suffix: ">",
      metaFieldsToEmbed: ["title", "none", "absent", "constructor", "toString"],
      embeddingSeparator: "|",
    });
    expect([...texts]).toEqual([[doc.id, "<T|body>"]]);
  });
});

describe("isEmbeddingProgress", () => {
  it("recognizes the payload by shape only", () => {
    expect(isEmbeddingProgress({ type: "embedding_progress", done: 1, total: 2 })).toBe(true);
    expect(isEmbeddingProgress(JSON.parse('{"type":"embedding_progress","done":0,"total":0}'))).toBe(true);
    expect(isEmbeddingProgress({ type: "embedding_progress", done: "1", total: 2 })).toBe(false);
    expect(isEmbeddingProgress({ content: "text" })).toBe(false);
    expect(isEmbeddingProgress(null)).toBe(false);
  });
});
