import {
  defineComponent,
  fromDurableJSON,
  getNamedType,
  namedTypeWire,
  Pipeline,
  RunInterruptedError,
  type RunSnapshot,
  toDurableJSON,
} from "@junction/core";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { ByteStream, byteStreamSchema, Document, documentSchema, SparseEmbedding } from "../src/index.js";

const rich = new Document({
  content: "Paris",
  blob: new ByteStream(Uint8Array.of(0, 1, 255), { mimeType: "application/pdf", meta: { file: "p.pdf" } }),
  meta: { lang: "en", nested: { a: [1, 2] }, id: "meta id" },
  score: 0.75,
  embedding: [0.1, -0.2],
  sparseEmbedding: new SparseEmbedding([3], [0.5]),
});

const Emit = defineComponent({
  type: "doctest.Emit",
  inputs: { text: z.string() },
  outputs: { documents: z.array(documentSchema) },
  run: () => ({ documents: [rich] }),
});

const Review = defineComponent({
  type: "doctest.Review",
  inputs: { documents: z.array(documentSchema) },
  outputs: { documents: z.array(documentSchema) },
  run: ({ documents }, context) => {
    if (context.resume === undefined) context.interrupt({ payload: { count: documents.length } });
    return { documents };
  },
});

describe("Document and ByteStream as named and durable types", () => {
  test("are registered under their names with a wire form", () => {
    expect(getNamedType("Document")).toBe(documentSchema);
    expect(getNamedType("ByteStream")).toBe(byteStreamSchema);
    const wire = namedTypeWire("Document");
    expect(wire?.decode(rich.toJSON())).toEqual(rich);
  });

  test("toDurableJSON / fromDurableJSON keep every field and the id", () => {
    const json = JSON.parse(JSON.stringify(toDurableJSON({ documents: [rich], stream: rich.blob })));
    const back = fromDurableJSON(json) as { documents: Document[]; stream: ByteStream };
    expect(back.documents[0]).toBeInstanceOf(Document);
    expect(back.documents[0]).toEqual(rich);
    expect(back.documents[0]?.id).toBe(rich.id);
    expect(back.stream).toBeInstanceOf(ByteStream);
    expect(back.stream.data).toEqual(Uint8Array.of(0, 1, 255));
  });

  test("a Document socket value survives an interrupt snapshot (through JSON text) and resume", async () => {
    const pipeline = new Pipeline();
    pipeline.addComponent("emit", new Emit()).addComponent("review", new Review());
    pipeline.connect("emit.documents", "review.documents");
    let snapshot: RunSnapshot | undefined;
    try {
      await pipeline.run({ emit: { text: "x" } });
    } catch (error) {
      if (!(error instanceof RunInterruptedError)) throw error;
      snapshot = JSON.parse(JSON.stringify(error.snapshot)) as RunSnapshot;
    }
    expect(snapshot).toBeDefined();
    const fresh = new Pipeline();
    fresh.addComponent("emit", new Emit()).addComponent("review", new Review());
    fresh.connect("emit.documents", "review.documents");
    const out = (await fresh.resume(snapshot as RunSnapshot, {
      "review#1": { action: "respond", value: "ok" },
    })) as {
      review: { documents: Document[] };
    };
    const [document] = out.review.documents;
    expect(document).toBeInstanceOf(Document);
    expect(document).toEqual(rich);
    expect(document?.blob?.mimeType).toBe("application/pdf");
    expect(document?.meta).toEqual({ lang: "en", nested: { a: [1, 2] }, id: "meta id" });
  });
});
