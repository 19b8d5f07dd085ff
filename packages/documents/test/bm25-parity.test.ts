import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  type Bm25Algorithm,
  type Bm25Parameters,
  Document,
  type Filter,
  InMemoryDocumentStore,
} from "../src/index.js";

/**
 * Scores against Haystack's: test/fixtures/bm25-parity.json is written by test/fixtures/bm25-reference.py,
 * a stdlib re-implementation of Haystack's InMemoryDocumentStore BM25 (run it to regenerate).
 */
interface FixtureDocument {
  readonly id: string;
  readonly content: string | null;
  readonly meta: Record<string, unknown>;
}
type Operation =
  | { readonly op: "write" | "overwrite"; readonly documents: readonly FixtureDocument[] }
  | { readonly op: "delete"; readonly ids: readonly string[] };
interface Case {
  readonly algorithm: Bm25Algorithm;
  readonly parameters: Bm25Parameters;
  readonly query: string;
  readonly filters: Filter | null;
  readonly topK: number;
  readonly scaleScore: boolean;
  readonly haystack: readonly [string, number][];
  readonly junction: readonly [string, number][];
}
interface Scenario {
  readonly name: string;
  readonly operations: readonly Operation[];
  readonly cases: readonly Case[];
}

const fixture = JSON.parse(readFileSync(new URL("./fixtures/bm25-parity.json", import.meta.url), "utf8")) as {
  scenarios: Scenario[];
};

function toDocument(doc: FixtureDocument): Document {
  return new Document({ id: doc.id, content: doc.content ?? undefined, meta: doc.meta });
}

async function replay(scenario: Scenario, algorithm: Bm25Algorithm, parameters: Bm25Parameters) {
  const store = new InMemoryDocumentStore({ bm25Algorithm: algorithm, bm25Parameters: parameters });
  for (const operation of scenario.operations) {
    if (operation.op === "delete") await store.deleteDocuments(operation.ids);
    else {
      await store.writeDocuments(operation.documents.map(toDocument), {
        policy: operation.op === "write" ? "fail" : "overwrite",
      });
    }
  }
  return store;
}

describe.each(fixture.scenarios)("BM25 parity with Haystack: $name", (scenario) => {
  const groups = new Map<string, Case[]>();
  for (const testCase of scenario.cases) {
    const key = JSON.stringify([testCase.algorithm, testCase.parameters]);
    groups.set(key, [...(groups.get(key) ?? []), testCase]);
  }

  it.each([...groups.entries()])("%s: every query, filter, topK and scaleScore", async (_key, cases) => {
    const { algorithm, parameters } = cases[0]!;
    const store = await replay(scenario, algorithm, parameters);
    let compared = 0;
    for (const testCase of cases) {
      const documents = await store.bm25Retrieval({
        query: testCase.query,
        filters: testCase.filters ?? undefined,
        topK: testCase.topK,
        scaleScore: testCase.scaleScore,
      });
      const label = `${testCase.query} ${JSON.stringify(testCase.filters)} top ${testCase.topK} scale ${testCase.scaleScore}`;
      expect(
        documents.map((document) => document.id),
        label,
      ).toEqual(testCase.junction.map(([id]) => id));
      documents.forEach((document, index) => {
        expect(Math.abs(document.score! - testCase.junction[index]![1]), `${label} #${index}`).toBeLessThan(
          1e-9,
        );
      });
      compared += documents.length;
    }
    expect(compared).toBeGreaterThan(0);
  });
});

describe("BM25: the deliberate difference from Haystack", () => {
  it("returns only documents sharing a token with the query, where Haystack fills topK with the others", () => {
    const main = fixture.scenarios[0]!;
    const filled = main.cases.find(
      (testCase) =>
        testCase.algorithm === "BM25L" && testCase.query === "paris capital" && testCase.filters === null,
    )!;
    expect(filled.haystack.length).toBeGreaterThan(filled.junction.length);
    // Haystack's own ranking, minus the non-matching documents, is Junction's.
    const junctionIds = filled.junction.map(([id]) => id);
    expect(filled.haystack.map(([id]) => id).slice(0, junctionIds.length)).toEqual(junctionIds);
  });
});
