/**
 * W6: `ConditionalRouter` route evaluation. A router with three routes whose first two conditions are
 * false, run `runs` times: each run evaluates three conditions and one output. Two variants: plain
 * comparisons, and `matches()` conditions (regular expressions on the linear-time engine).
 */
import { ConditionalRouter } from "@junction/components";
import { z } from "zod";

/** The route conditions of each variant (the third route always fires). */
export const routerConditions = {
  plain: ["size(query) > 100", 'priority == "high"'],
  regex: ['query.matches("^(refund|return)s?\\\\b")', 'query.matches("[0-9]{4}-[0-9]{4}")'],
} as const;

/** Route evaluations per router run (conditions evaluated). */
export const routesPerRun = 3;

const query = "where is my parcel? it was due on monday";

/** W6 Junction: `runs` router runs; returns how many routed to the fallback. */
export function junctionRouter(variant: keyof typeof routerConditions, runs: number): () => Promise<number> {
  const [first, second] = routerConditions[variant];
  const router = new ConditionalRouter({
    routes: [
      { condition: first, output: "query", outputName: "first", outputType: z.string() },
      { condition: second, output: "query", outputName: "second", outputType: z.string() },
      { condition: "true", output: "query", outputName: "fallback", outputType: z.string() },
    ],
  });
  const inputs = variant === "plain" ? { query, priority: "normal" } : { query };
  return async () => {
    let routed = 0;
    for (let index = 0; index < runs; index += 1) {
      const result = (await router.run(inputs)) as { fallback?: string };
      if (result.fallback !== undefined) routed += 1;
    }
    return routed;
  };
}
