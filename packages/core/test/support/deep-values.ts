import { z } from "zod";

/** `{ a: { a: … leaf } }` (or `[[… leaf]]`) nesting `depth` containers. */
export function nested(depth: number, kind: "object" | "array" = "object", leaf: unknown = "leaf"): unknown {
  let value = leaf;
  for (let level = 0; level < depth; level++) value = kind === "object" ? { a: value } : [value];
  return value;
}

/** How many containers `value` nests along its first child (iterative: any depth). */
export function depthOf(value: unknown): number {
  let depth = 0;
  let current = value;
  while (typeof current === "object" && current !== null) {
    depth += 1;
    current = Array.isArray(current) ? current[0] : (current as { a: unknown }).a;
  }
  return depth;
}

/** A recursive value: what `treeSchema` (a `z.lazy` schema) accepts. */
export type Tree = { a?: Tree | string | undefined };

/** A recursive schema: zod walks the whole value, so a deep one can exhaust the stack. */
export const treeSchema: z.ZodType<Tree> = z.lazy(() =>
  z.object({ a: z.union([z.string(), treeSchema]).optional() }),
);
