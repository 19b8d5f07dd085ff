import { parseArgs } from "node:util";
import { formatPgvector } from "./format.js";
import { pgvectorBench } from "./pgvector-bench.js";

// Standalone: `tsx --conditions=@junction/source bench/src/pgvector/run.ts [--quick] [--documents N] [--dimension D] [--queries Q]`.
const { values } = parseArgs({
  options: {
    quick: { type: "boolean" },
    documents: { type: "string" },
    dimension: { type: "string" },
    queries: { type: "string" },
  },
});
const size = (value: string | undefined) => (value === undefined ? undefined : Number(value));
const results = await pgvectorBench(values.quick ?? false, {
  documents: size(values.documents),
  dimension: size(values.dimension),
  queries: size(values.queries),
});
process.stdout.write(formatPgvector(results));
