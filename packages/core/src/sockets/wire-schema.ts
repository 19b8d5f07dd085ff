import { z } from "zod";
import type { Issue } from "../errors/errors.js";
import { decodeNamedJSON } from "./named-json.js";
import { namedTypeName, namedTypeWire } from "./named-types.js";

/**
 * Socket schemas as seen by a remote caller: JSON Schema of the JSON a caller sends or receives, with
 * named types replaced by their wire form (`ChatMessage` → its `{ role, content, … }` shape), and
 * JSON values decoded back into instances before a run.
 */

/** The wire JSON Schema of a socket schema, or the reason it has none. */
export type WireSchema =
  | { readonly schema: Record<string, unknown>; readonly problem?: undefined }
  | { readonly schema?: undefined; readonly problem: string };

function clear(json: Record<string, unknown>): void {
  for (const key of Object.keys(json)) delete json[key];
}

/**
 * Writes `schema` as the JSON Schema (draft 2020-12) of what travels over the wire. Named types use
 * their wire form; a part JSON cannot carry (a named type without a wire form such as `Tools`, a
 * function, a custom schema, a transform) makes the whole schema unavailable, with the reason.
 *
 * @param schema - a socket schema
 * @param io - `"input"` for what callers send (defaults may be left out), `"output"` for answers
 */
export function wireJSONSchema(schema: z.ZodType, io: "input" | "output" = "input"): WireSchema {
  const problems: string[] = [];
  let json: Record<string, unknown>;
  try {
    json = z.toJSONSchema(schema, {
      io,
      target: "draft-2020-12",
      unrepresentable: (context) => {
        const current = context.zodSchema as unknown as z.ZodType;
        const name = namedTypeName(current);
        if (name === undefined) {
          problems.push(`a "${current._zod.def.type}" schema has no JSON form`);
        } else if (namedTypeWire(name) === undefined) {
          problems.push(`"${name}" values cannot travel as JSON`);
        }
        return "any";
      },
      override: (context) => {
        const current = context.zodSchema as unknown as z.ZodType;
        const target = context.jsonSchema as Record<string, unknown>;
        const wire = namedTypeWire(current);
        if (wire !== undefined) {
          clear(target);
          Object.assign(target, structuredClone(wire.jsonSchema));
          return;
        }
        const def = current._zod.def as { type: string; out?: z.ZodType };
        if (def.type === "pipe" && def.out?._zod.def.type === "transform") {
          problems.push("a transform has no JSON form");
        }
      },
    }) as Record<string, unknown>;
  } catch (error) {
    return { problem: (error as Error).message };
  }
  if (problems.length > 0) return { problem: [...new Set(problems)].join("; ") };
  delete json.$schema;
  return { schema: json };
}

/**
 * Turns the JSON a caller sent for `schema` into the values components expect: JSON of a named type
 * with a wire form is decoded (anywhere inside arrays, objects, records and optional/nullable/default
 * wrappers); everything else is returned unchanged (the pipeline validates it against the socket
 * schema when it runs).
 *
 * @param schema - the socket schema
 * @param value - the JSON value
 * @param path - where the value is, for issues
 * @param issues - receives a problem for every value that could not be decoded
 */
export function decodeWireValue(
  schema: z.ZodType,
  value: unknown,
  path: readonly (string | number)[],
  issues: Issue[],
): unknown {
  return decodeNamedJSON(
    schema,
    value,
    { source: "wire", onFailure: "issues", issues, requireDecoder: true },
    path,
  );
}
