import { z } from "zod";
import { formatIssues, type Issue, SerializationError } from "../errors/errors.js";
import { excerpt } from "../errors/excerpt.js";
import { namedTypeName } from "./named-types.js";
import { namedTypeKeyword, optionalKeyword, readSocketSchema } from "./socket-json-read.js";

/**
 * Socket schemas as JSON Schema, so socket types decided at run time (a router's `outputType`, a prompt
 * builder's variables) survive serialization.
 *
 * Named types are written by name (`{ "x-junction-type": "ChatMessage" }`), anywhere in the schema; an
 * optional value is marked `"x-junction-optional": true`, since JSON Schema has no `undefined`.
 */

function clear(json: Record<string, unknown>): void {
  for (const key of Object.keys(json)) delete json[key];
}

function describeSchema(schema: z.ZodType): string {
  const type = schema._zod.def.type;
  return type === "custom"
    ? "a z.custom()/z.instanceof() schema that is not a named type"
    : `a "${excerpt(type)}" schema`;
}

/**
 * Writes a socket schema as JSON Schema (draft 2020-12, input side), with named types written by name.
 *
 * Throws a {@link SerializationError} listing every part that JSON Schema cannot describe (custom
 * schemas that are not named types, transforms, dates, maps, bigints…), since reading such a schema
 * back would silently accept other values.
 *
 * @param schema - the socket's zod schema
 * @returns a JSON-compatible JSON Schema object
 * @example
 * ```ts
 * socketSchemaToJSON(z.array(chatMessageSchema));
 * // { $schema: "...", type: "array", items: { "x-junction-type": "ChatMessage" } }
 * ```
 */
export function socketSchemaToJSON(schema: z.ZodType): Record<string, unknown> {
  const issues: Issue[] = [];
  let json: Record<string, unknown>;
  try {
    json = z.toJSONSchema(schema, {
      io: "input",
      unrepresentable: (context) => {
        const name = namedTypeName(context.zodSchema as unknown as z.ZodType);
        if (name !== undefined) return { [namedTypeKeyword]: name };
        issues.push({
          path: context.path,
          message: `${describeSchema(context.zodSchema as unknown as z.ZodType)} cannot be written as JSON Schema. Register class types with defineNamedType, or use a JSON-describable schema.`,
        });
        return "any";
      },
      override: (context) => {
        const current = context.zodSchema as unknown as z.ZodType;
        const target = context.jsonSchema as Record<string, unknown>;
        const name = namedTypeName(current);
        if (name !== undefined) {
          clear(target);
          target[namedTypeKeyword] = name;
          return;
        }
        const def = current._zod.def as { type: string; out?: z.ZodType };
        if (def.type === "optional") target[optionalKeyword] = true;
        // z.number().int() carries the safe-integer range; it is implied by "integer" (read back as
        // z.number().int()), so documents say `{ "type": "integer" }` rather than ±9007199254740991.
        if (target.type === "integer") {
          if (target.minimum === Number.MIN_SAFE_INTEGER) delete target.minimum;
          if (target.maximum === Number.MAX_SAFE_INTEGER) delete target.maximum;
        }
        if (def.type === "pipe" && def.out?._zod.def.type === "transform") {
          issues.push({
            path: context.path,
            message:
              "a transform cannot be written as JSON Schema (its output type is code). Declare the socket with the transformed value's schema.",
          });
        }
      },
    }) as Record<string, unknown>;
  } catch (error) {
    throw new SerializationError(
      `socketSchemaToJSON: the schema cannot be written as JSON Schema: ${(error as Error).message}`,
      { cause: error },
    );
  }
  if (issues.length > 0) {
    throw new SerializationError(
      `socketSchemaToJSON: the schema cannot be written as JSON Schema:\n${formatIssues(issues)}`,
      { issues },
    );
  }
  return json;
}

/**
 * Reads a socket schema written by {@link socketSchemaToJSON} (or a plain JSON Schema) back into a zod
 * schema, resolving `x-junction-type` names through the named-type registry.
 *
 * Compatibility answers survive the round trip for strings, numbers, booleans, literals, enums, arrays,
 * tuples, objects, records, unions, optional and nullable values and named types. An object without
 * `additionalProperties` reads back as a stripping `z.object`, `{}` as `z.looseObject`, `false` as
 * `z.strictObject`.
 *
 * @param json - the JSON Schema
 * @returns the zod schema
 * @throws DeserializationError listing every problem (unknown named types, unsupported keywords)
 */
export function socketSchemaFromJSON(json: unknown): z.ZodType {
  return readSocketSchema(json);
}
