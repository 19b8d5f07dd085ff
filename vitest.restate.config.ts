import { defaultServerConditions } from "vite";
import { defineConfig } from "vitest/config";

/**
 * The Restate tests (`pnpm run test:restate`): a real restate-server and a service process, under
 * Node 22 (the Restate SDK needs it). Not part of the default `npm test`, which runs on Node 20.
 */
const conditions = ["@junction/source", ...defaultServerConditions];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ["@junction/source"] } },
  test: {
    name: "restate",
    root: "packages/restate",
    include: ["test-server/**/*.test.ts"],
    setupFiles: ["../../test/support/console-guard.ts"],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
