import { formatPgvector } from "./format.js";
import { pgvectorBench } from "./pgvector-bench.js";

// Standalone: `tsx --conditions=@junction/source bench/src/pgvector/run.ts [--quick]`.
process.stdout.write(formatPgvector(await pgvectorBench(process.argv.includes("--quick"))));
