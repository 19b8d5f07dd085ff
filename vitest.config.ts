import { defaultServerConditions } from "vite";
import { defineConfig } from "vitest/config";

/** Resolve workspace packages to their TypeScript sources, so tests never need a build. */
const conditions = ["@junction/source", ...defaultServerConditions];

const packages = ["core", "llm", "agents", "components", "openai", "serve", "playground"] as const;

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
          typecheck: {
            enabled: true,
            include: ["test/**/*.test-d.ts"],
            tsconfig: "../../tsconfig.json",
          },
        },
      })),
      {
        ...shared,
        test: {
          name: "integration",
          root: ".",
          include: ["test/**/*.test.ts"],
          setupFiles: ["test/support/console-guard.ts"],
          typecheck: {
            enabled: true,
            include: ["test/**/*.test-d.ts"],
            tsconfig: "tsconfig.json",
          },
        },
      },
    ],
  },
});
