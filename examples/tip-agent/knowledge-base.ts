/**
 * A small bundled knowledge base of tipping customs and related travel facts, and a real lookup over it
 * (term-frequency scoring with an inverse-document-frequency weight) — what the demo's `search` tool calls.
 */

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

const stopWords = new Set([
  "a",
  "an",
  "and",
  "the",
  "in",
  "of",
  "for",
  "to",
  "is",
  "at",
  "on",
  "what",
  "how",
  "much",
  "meal",
  "should",
  "i",
]);

function terms(text: string): string[] {
  return text
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9 ]+/g, " ")
    .split(/\s+/)
    .filter((term) => term.length > 1 && !stopWords.has(term));
}

const documentTerms = facts.map((fact) => terms(`${fact.country} ${fact.topic} ${fact.text}`));
const documentFrequency = new Map<string, number>();
for (const termsOfDocument of documentTerms) {
  for (const term of new Set(termsOfDocument))
    documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
}

/** One search hit. */
export interface SearchHit {
  readonly id: string;
  readonly score: number;
  readonly text: string;
}

/**
 * Ranks the facts against `query`: for every query term found in a fact, term frequency × inverse
 * document frequency; facts with no matching term are left out.
 *
 * @param query - free text, e.g. "tipping customs France restaurant"
 * @param limit - the most hits to return
 */
export function searchFacts(query: string, limit = 2): SearchHit[] {
  const queryTerms = new Set(terms(query));
  const hits: SearchHit[] = [];
  facts.forEach((fact, index) => {
    const counts = new Map<string, number>();
    for (const term of documentTerms[index] ?? []) counts.set(term, (counts.get(term) ?? 0) + 1);
    let score = 0;
    for (const term of queryTerms) {
      const count = counts.get(term);
      if (count !== undefined)
        score += count * Math.log(1 + facts.length / (documentFrequency.get(term) ?? 1));
    }
    if (score > 0) hits.push({ id: fact.id, score: Math.round(score * 1000) / 1000, text: fact.text });
  });
  return hits.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id)).slice(0, limit);
}
