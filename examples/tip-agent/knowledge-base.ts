/**
 * A small bundled knowledge base of tipping customs and related travel facts, as Documents in an
 * `InMemoryDocumentStore` — what the demo's `search` tool (an `InMemoryBM25Retriever`) searches.
 */
import { Document, InMemoryDocumentStore } from "@junction/documents";

/** One fact sheet. */
export interface Fact {
  readonly id: string;
  readonly country: string;
  readonly topic: "tipping" | "currency" | "etiquette";
  readonly text: string;
}

/** The bundled facts. */
export const facts: readonly Fact[] = [
  {
    id: "fr-tipping",
    country: "France",
    topic: "tipping",
    text: "France: restaurant bills include a 15% service charge by law (service compris), so tipping is optional. For good service people leave 5-10% extra or round up the bill; in cafés a few coins is usual.",
  },
  {
    id: "us-tipping",
    country: "United States",
    topic: "tipping",
    text: "United States: service is not included. Tip 15-20% of the pre-tax bill at sit-down restaurants, 20% or more for excellent service; $1-2 per drink at bars.",
  },
  {
    id: "jp-tipping",
    country: "Japan",
    topic: "tipping",
    text: "Japan: tipping is not customary and can cause confusion; excellent service is part of the price. Some high-end ryokan add a service charge of 10-15%.",
  },
  {
    id: "de-tipping",
    country: "Germany",
    topic: "tipping",
    text: "Germany: service is included, but it is customary to round up or add 5-10% for good service, telling the server the total when paying rather than leaving money on the table.",
  },
  {
    id: "it-tipping",
    country: "Italy",
    topic: "tipping",
    text: "Italy: many restaurants charge a coperto (cover charge) per person; tipping is not expected. Rounding up or leaving 5-10% for very good service is appreciated.",
  },
  {
    id: "uk-tipping",
    country: "United Kingdom",
    topic: "tipping",
    text: "United Kingdom: a discretionary service charge of 10-12.5% is often added to restaurant bills; if not, a 10-15% tip is customary. Tipping in pubs is not expected.",
  },
  {
    id: "es-tipping",
    country: "Spain",
    topic: "tipping",
    text: "Spain: tipping is modest; leaving small change or 5-10% in restaurants for good service is common, and not expected in bars.",
  },
  {
    id: "ca-tipping",
    country: "Canada",
    topic: "tipping",
    text: "Canada: tip 15-20% of the pre-tax bill in restaurants; service is rarely included.",
  },
  {
    id: "au-tipping",
    country: "Australia",
    topic: "tipping",
    text: "Australia: tipping is not expected because wages include service; 10% for exceptional restaurant service is appreciated.",
  },
  {
    id: "fr-currency",
    country: "France",
    topic: "currency",
    text: "France uses the euro (€). Cards are widely accepted; small cafés may prefer cash for amounts under €10.",
  },
  {
    id: "fr-etiquette",
    country: "France",
    topic: "etiquette",
    text: "France: greet staff with 'Bonjour' when entering; ask for the bill ('l'addition, s'il vous plaît') — it is not brought unprompted.",
  },
  {
    id: "jp-currency",
    country: "Japan",
    topic: "currency",
    text: "Japan uses the yen (¥). Cash is still common in small restaurants; pay at the register rather than at the table.",
  },
];

/** The facts as Documents: the text is the content; id, country and topic go into meta. */
export function factDocuments(): Document[] {
  return facts.map(
    (fact) =>
      new Document({
        content: fact.text,
        meta: { fact_id: fact.id, country: fact.country, topic: fact.topic },
      }),
  );
}

/**
 * A store holding the facts. With `path`, the store keeps its documents in that JSON file (written on
 * every write), so a saved pipeline that uses it reloads with its documents.
 *
 * @param options - `path`: the file the store saves to and loads from
 */
export async function createKnowledgeBase(options: { path?: string } = {}): Promise<InMemoryDocumentStore> {
  const store = new InMemoryDocumentStore(options.path === undefined ? {} : { path: options.path });
  await store.writeDocuments(factDocuments(), { policy: "overwrite" });
  return store;
}
