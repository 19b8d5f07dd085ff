import { defaultServerConditions } from "vite";
import { defineConfig } from "vitest/config";

/**
 * Resolve workspace packages to their TypeScript sources, so tests never need a build. The bundler-only
 * `module` condition is left out: Node never uses it, and packages such as `@opentelemetry/api` 1.9 ship
 * an ESM build under it that Node's loader cannot run (imports without file extensions).
 */
const conditions = [
  "@junction/source",
  ...defaultServerConditions.filter((condition) => condition !== "module"),
];

const packages = [
  "core",
  "llm",
  "agents",
  "components",
  "openai",
  "ai-sdk",
  "mcp",
  "otel",
  "serve",
  "cli",
  "playground",
  "restate",
  "documents",
  "converters",
  "pgvector",
  "evaluation",
] as const;

const shared = {
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ["@junction/source"] } },
};

export default defineConfig({
  test: {
    projects: [
      ...packages.map((name) => ({
        ...shared,
        test: {
          name,
          root: `packages/${name}`,
          include: ["test/**/*.test.ts"],
          setupFiles: ["../../test/support/console-guard.ts"],
        },
      })),
      {
        ...shared,
        test: {
          name: "integration",
          root: ".",
          include: ["test/**/*.test.ts"],
          setupFiles: ["test/support/console-guard.ts"],
        },
      },
      {
        // One project checks every type test: tsc runs once over the whole workspace (one run per
        // project would repeat the same program, and vitest's "experimental" notice, six times).
        ...shared,
        test: {
          name: "types",
          root: ".",
          typecheck: {
            enabled: true,
            only: true,
            include: ["packages/*/test/**/*.test-d.ts", "test/**/*.test-d.ts"],
            tsconfig: "tsconfig.json",
          },
        },
      },
    ],
  },
});
