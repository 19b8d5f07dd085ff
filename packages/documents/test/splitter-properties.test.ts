import { MemoryLogger } from "@junction/core";
import {
  Document,
  DocumentSplitter,
  RecursiveDocumentSplitter,
  type SplitOverlap,
} from "@junction/documents";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { sentenceStarts } from "../src/splitters/sentences.js";

/** Texts made of words, punctuation, every delimiter the splitters know, and a surrogate pair. */
const text = fc
  .array(
    fc.constantFrom(
      "a",
      "bb",
      "word",
      "Ünï",
      "😀",
      " ",
      "  ",
      "\n",
      "\n\n",
      "\f",
      ".",
      ". ",
      "! ",
      "? ",
      "\t",
      "-",
    ),
    { minLength: 1, maxLength: 120 },
  )
  .map((pieces) => pieces.join(""));

const lengthAndOverlap = fc
  .integer({ min: 1, max: 12 })
  .chain((splitLength) => fc.tuple(fc.constant(splitLength), fc.integer({ min: 0, max: splitLength - 1 })));

const start = (chunk: Document) => chunk.meta.split_idx_start as number;
const overlapsOf = (chunk: Document) => (chunk.meta._split_overlap ?? []) as SplitOverlap[];
const words = (value: string) => value.match(/\S+/g)?.length ?? 0;
const formFeeds = (value: string) => value.split("\f").length - 1;

/**
 * The invariants every splitter output must satisfy for one source document (the bugs of Haystack,
 * LangChain and Mastra in design/retrieval.md §2–3 violate one of them each).
 */
function checkChunks(source: string, chunks: readonly Document[], splitOverlap: number): void {
  expect(chunks.length).toBeGreaterThan(0);
  expect(new Set(chunks.map((chunk) => chunk.id)).size).toBe(chunks.length); // ids unique
  const first = chunks[0] as Document;
  expect(start(first)).toBe(0);
  let rebuilt = first.content ?? "";
  chunks.forEach((chunk, index) => {
    const content = chunk.content ?? "";
    expect(content.length).toBeGreaterThan(0); // no empty chunk
    expect(source.slice(start(chunk), start(chunk) + content.length)).toBe(content); // an exact slice
    expect(chunk.meta.split_id).toBe(index);
    if (index === 0) return;
    const previous = chunks[index - 1] as Document;
    const previousEnd = start(previous) + (previous.content ?? "").length;
    const end = start(chunk) + content.length;
    expect(start(chunk)).toBeGreaterThanOrEqual(start(previous));
    expect(start(chunk)).toBeLessThanOrEqual(previousEnd); // no gap
    expect(end).toBeGreaterThan(previousEnd); // never only overlap
    if (splitOverlap === 0) expect(start(chunk)).toBe(previousEnd);
    const shared = previousEnd - start(chunk);
    const back = overlapsOf(chunk).find((entry) => entry.doc_id === previous.id);
    const forward = overlapsOf(previous).find((entry) => entry.doc_id === chunk.id);
    if (shared > 0) {
      // the recorded ranges are exactly the shared text, in each neighbour's coordinates
      expect(back?.range).toEqual([start(chunk) - start(previous), previousEnd - start(previous)]);
      expect(forward?.range).toEqual([0, shared]);
      const [from, to] = back?.range ?? [0, 0];
      expect((previous.content ?? "").slice(from, to)).toBe(content.slice(0, shared));
    } else {
      expect(back).toBeUndefined();
      expect(forward).toBeUndefined();
    }
    rebuilt += content.slice(shared); // chunks minus overlaps
  });
  expect(rebuilt).toBe(source);
}

describe("DocumentSplitter properties", () => {
  test("chunks are exact, gap-free, linked slices that rebuild the source", async () => {
    await fc.assert(
      fc.asyncProperty(
        text,
        fc.constantFrom("word", "sentence", "passage", "page", "line", "period" as const),
        lengthAndOverlap,
        fc.integer({ min: 0, max: 6 }),
        (source, splitBy, [splitLength, splitOverlap], splitThreshold) => {
          const splitter = new DocumentSplitter({ splitBy, splitLength, splitOverlap, splitThreshold });
          return splitter
            .run({ documents: [new Document({ content: source })] }, { logger: new MemoryLogger() })
            .then(({ documents = [] }) => {
              checkChunks(source, documents, splitOverlap);
              for (const chunk of documents) {
                // the page a chunk starts on: 1 + the form feeds before it (a threshold merge keeps it)
                expect(chunk.meta.page_number).toBe(1 + formFeeds(source.slice(0, start(chunk))));
              }
            });
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("RecursiveDocumentSplitter properties", () => {
  test("chunks are exact, linked slices of at most splitLength units that rebuild the source", async () => {
    await fc.assert(
      fc.asyncProperty(
        text.filter((source) => source.length > 0),
        fc.constantFrom("word", "char" as const),
        lengthAndOverlap,
        fc.constantFrom<string[] | undefined>(undefined, ["."], ["\n", "-"], ["zz"]),
        (source, splitUnit, [splitLength, splitOverlap], separators) => {
          const splitter = new RecursiveDocumentSplitter({
            splitUnit,
            splitLength,
            splitOverlap,
            separators,
          });
          return splitter
            .run({ documents: [new Document({ content: source })] }, { logger: new MemoryLogger() })
            .then(({ documents = [] }) => {
              checkChunks(source, documents, splitOverlap);
              const units = (value: string) => (splitUnit === "char" ? value.length : words(value));
              // Haystack's measure for cutting: pieces of split(" "); its fallback and the overlap count
              // runs of non-whitespace, so a chunk fits by one measure or the other.
              const spaced = (value: string) =>
                splitUnit === "char" ? value.length : value.split(" ").filter((piece) => piece !== "").length;
              documents.forEach((chunk, index) => {
                expect(Math.min(units(chunk.content ?? ""), spaced(chunk.content ?? ""))).toBeLessThanOrEqual(
                  splitLength,
                );
                // the page the chunk's text ends on, trailing form feeds ignored (Haystack's rule)
                const end = start(chunk) + (chunk.content ?? "").replace(/\f+$/, "").length;
                expect(chunk.meta.page_number).toBe(1 + formFeeds(source.slice(0, end)));
                const previous = documents[index - 1];
                if (previous === undefined || splitOverlap === 0) return;
                // the overlap is exactly the last splitOverlap units of the previous chunk (or all of it)
                const shared = start(previous) + (previous.content ?? "").length - start(chunk);
                const previousUnits = units(previous.content ?? "");
                if (splitUnit === "char" || separators === undefined) {
                  expect(units((chunk.content ?? "").slice(0, shared))).toBe(
                    Math.min(splitOverlap, previousUnits),
                  );
                }
              });
            });
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("sentence segmentation in windows", () => {
  test("finds the same boundaries as segmenting the whole text at once", () => {
    const segmenter = new Intl.Segmenter("en", { granularity: "sentence" });
    const sentence = fc
      .tuple(
        fc.array(fc.constantFrom("word", "Mr.", "e.g.", "3.5", "x", "(see", "it)", '"quoted"'), {
          minLength: 1,
          maxLength: 30,
        }),
        fc.constantFrom(".", "!", "?", "...", ".)", ""),
        fc.constantFrom(" ", "  ", "\n", "\n\n", " \f", ""),
      )
      .map(([words, end, space]) => `${words.join(" ")}${end}${space}`);
    fc.assert(
      fc.property(fc.array(sentence, { minLength: 150, maxLength: 500 }), (sentences) => {
        const text = sentences.join("");
        const whole = [...segmenter.segment(text)]
          .map((segment) => segment.index)
          .filter((index) => index > 0);
        expect(sentenceStarts(text, segmenter)).toEqual(whole);
      }),
      { numRuns: 40 },
    );
  });
});
