import { Document, DocumentSplitter, RecursiveDocumentSplitter } from "@junction/documents";

/** One row of the splitting table: one splitter on a text of `words` and of four times as many. */
export interface SplittingRow {
  readonly measure: string;
  readonly unit: string;
  readonly small: number;
  readonly large: number;
}

/** Sentences with abbreviations and paragraph breaks (the sentence rules' and separators' work). */
const vocabulary = ["Alpha", "beta.", "Gamma", "delta,", "Mr.", "Smith", "e.g.", "the end.\n\n", "x"];

function text(words: number): string {
  const out: string[] = [];
  for (let index = 0; index < words; index++) out.push(vocabulary[index % vocabulary.length]!);
  return out.join(" ");
}

const splitters = {
  "DocumentSplitter word 200/20": () =>
    new DocumentSplitter({ splitBy: "word", splitLength: 200, splitOverlap: 20 }),
  "DocumentSplitter sentence 5/1": () =>
    new DocumentSplitter({ splitBy: "sentence", splitLength: 5, splitOverlap: 1 }),
  "DocumentSplitter passage 2": () => new DocumentSplitter({ splitBy: "passage", splitLength: 2 }),
  "RecursiveDocumentSplitter 200/20": () =>
    new RecursiveDocumentSplitter({ splitLength: 200, splitOverlap: 20 }),
};

async function millis(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

/**
 * Splitting one long document: wall ms at `words` and at `4 × words`. Linear splitters take about four
 * times as long on the larger text; page numbers and overlap once made some of them quadratic.
 */
export async function splittingBench(words: number): Promise<SplittingRow[]> {
  const rows: SplittingRow[] = [];
  const small = new Document({ content: text(words) });
  const large = new Document({ content: text(words * 4) });
  for (const [name, make] of Object.entries(splitters)) {
    const splitter = make();
    await splitter.run({ documents: [small] }); // warm-up
    rows.push({
      measure: name,
      unit: "ms",
      small: await millis(() => splitter.run({ documents: [small] })),
      large: await millis(() => splitter.run({ documents: [large] })),
    });
  }
  return rows;
}
