import type { z } from "zod";
import { namedTypeName } from "./named-types.js";

/**
 * The values a sender schema may produce, as a flat list of "atoms": single primitive values (from
 * literals, enums, `null`, `undefined`) and non-union schemas. Unions, optionals, nullables and
 * wrappers are expanded, so the compatibility rules only ever compare one atom with one receiver.
 * Named types are never expanded.
 *
 * A pipeline sends what `run` returned (typed `z.input` of the output schema), not the parsed value, so
 * a `pipe` contributes its input side, and `catch` (which accepts anything) stays opaque. `default`
 * contributes its inner type only: an `undefined` output is never sent.
 */

/** A primitive value a literal or enum may hold. */
export type Primitive = string | number | bigint | boolean | symbol | null | undefined;

/** One possible value (`kind: "value"`) or one family of values (`kind: "schema"`) of a sender. */
export type SenderAtom =
  | { readonly kind: "value"; readonly value: Primitive }
  | { readonly kind: "schema"; readonly schema: z.ZodType };

/** The typed definition of any zod schema (a discriminated union on `type`). */
export type SchemaDef = z.core.$ZodTypes["_zod"]["def"];

/** A schema's definition, typed as the union of every zod definition. */
export function defOf(schema: z.ZodType): SchemaDef {
  return (schema as unknown as z.core.$ZodTypes)._zod.def;
}

/** The finite set of values of a literal, enum, `null` or `undefined` schema; `undefined` otherwise. */
export function finiteValues(schema: z.ZodType): readonly Primitive[] | undefined {
  const def = defOf(schema);
  switch (def.type) {
    case "literal":
    case "enum":
    case "null":
    case "undefined": {
      const values = (schema._zod as { values?: Set<Primitive> }).values;
      return values === undefined ? undefined : [...values];
    }
    case "void":
      return [undefined];
    default:
      return undefined;
  }
}

/** Expands `schema` into the atoms of the values it may produce. */
export function senderAtoms(schema: z.ZodType): SenderAtom[] {
  const atoms: SenderAtom[] = [];
  collect(schema, atoms, new Set());
  return atoms;
}

function collect(schema: z.ZodType, atoms: SenderAtom[], visiting: Set<z.ZodType>): void {
  if (namedTypeName(schema) !== undefined) {
    atoms.push({ kind: "schema", schema });
    return;
  }
  const values = finiteValues(schema);
  if (values !== undefined) {
    for (const value of values) atoms.push({ kind: "value", value });
    return;
  }
  if (visiting.has(schema)) return; // a lazy schema that only refers to itself produces nothing new
  visiting.add(schema);
  const def = defOf(schema);
  switch (def.type) {
    case "union":
      for (const option of def.options) collect(option as z.ZodType, atoms, visiting);
      break;
    case "optional":
      atoms.push({ kind: "value", value: undefined });
      collect(def.innerType as z.ZodType, atoms, visiting);
      break;
    case "nullable":
      atoms.push({ kind: "value", value: null });
      collect(def.innerType as z.ZodType, atoms, visiting);
      break;
    case "default":
    case "prefault":
    case "readonly":
      collect(def.innerType as z.ZodType, atoms, visiting);
      break;
    case "nonoptional": {
      const inner: SenderAtom[] = [];
      collect(def.innerType as z.ZodType, inner, visiting);
      atoms.push(...inner.filter((atom) => !(atom.kind === "value" && atom.value === undefined)));
      break;
    }
    case "lazy":
      collect(def.getter() as z.ZodType, atoms, visiting);
      break;
    case "pipe":
      collect(def.in as z.ZodType, atoms, visiting);
      break;
    case "never":
      break;
    default:
      atoms.push({ kind: "schema", schema });
  }
  visiting.delete(schema);
}

/** True when the atom is the value `undefined`, or a schema that only produces `undefined`. */
export function isUndefinedAtom(atom: SenderAtom): boolean {
  return atom.kind === "value" && atom.value === undefined;
}
