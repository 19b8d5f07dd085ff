import { defineComponent, JunctionError } from "@junction/core";
import { expect } from "vitest";
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

/**
 * The two measuring components of the value-limit tests, typed `<prefix>.Measure` (takes anything) and
 * `<prefix>.MeasureTree` (takes a {@link treeSchema} value); each outputs how deep its `data` nests.
 */
export function measureComponents(prefix: string) {
  const Measure = defineComponent({
    type: `${prefix}.Measure`,
    inputs: { data: z.unknown() },
    outputs: { depth: z.number() },
    run: ({ data }) => ({ depth: depthOf(data) }),
  });
  const MeasureTree = defineComponent({
    type: `${prefix}.MeasureTree`,
    inputs: { data: treeSchema },
    outputs: { depth: z.number() },
    run: ({ data }) => ({ depth: depthOf(data) }),
  });
  return { Measure, MeasureTree };
}

/** The Junction error `promise` rejects with; fails the test on a `RangeError` or when it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<JunctionError> {
  try {
    await promise;
  } catch (error) {
    expect(error).not.toBeInstanceOf(RangeError);
    if (JunctionError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected the run to fail");
}
