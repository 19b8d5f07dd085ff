import type { z } from "zod";
import type { Issue } from "../errors/errors.js";
import { excerpt } from "../errors/excerpt.js";
import { didYouMean } from "../errors/suggest.js";

interface ObjectDef {
  readonly type: string;
  readonly shape?: Readonly<Record<string, unknown>>;
  readonly catchall?: unknown;
}

function camelCase(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

/**
 * The params a component was given that its params schema does not know, as issues (one per key, with
 * a did-you-mean: the camelCase spelling of a snake_case key, or the closest option names). A zod object
 * in its default mode drops unknown keys silently, so `new DocumentSplitter({ split_length: 100 })`
 * would quietly use the default — Haystack refuses an unexpected keyword argument, and so do we.
 * Schemas that accept extra keys on purpose (`.loose()`, `.catchall(...)`) and non-object schemas are
 * left alone.
 *
 * @param schema - the component's params schema
 * @param value - what the constructor was given
 */
export function unknownParamIssues(schema: z.ZodType, value: unknown): Issue[] {
  const def = (schema as unknown as { _zod: { def: ObjectDef } })._zod.def;
  if (def.type !== "object" || def.shape === undefined || def.catchall !== undefined) return [];
  if (typeof value !== "object" || value === null || Array.isArray(value)) return [];
  const known = Object.keys(def.shape);
  const issues: Issue[] = [];
  for (const key of Object.keys(value)) {
    if (Object.hasOwn(def.shape, key)) continue;
    const camel = camelCase(key);
    const hint =
      camel !== key && Object.hasOwn(def.shape, camel) ? ` Did you mean "${camel}"?` : didYouMean(key, known);
    issues.push({
      path: ["params", key],
      message: `unknown option "${excerpt(key)}".${hint}${known.length === 0 ? " This component takes no options." : ` Its options are ${known.map((name) => `"${name}"`).join(", ")}.`}`,
    });
  }
  return issues;
}
