import type { z } from "zod";
import { namedTypeName } from "../sockets/named-types.js";

/**
 * A short, readable name for a socket schema, for error messages and tracing specs:
 * `string`, `number[]`, `ChatMessage`, `string | undefined`, `{ a, b }`.
 *
 * @param schema - the socket's schema (for variadic sockets, the element schema)
 * @param depth - how deep the description already is (nested types are cut off after a few levels)
 */
export function describeType(schema: z.ZodType, depth = 0): string {
  const named = namedTypeName(schema);
  if (named !== undefined) return named;
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  if (depth > 3) return def.type;
  const inner = (key: string): string => describeType(def[key] as z.ZodType, depth + 1);
  switch (def.type) {
    case "array": {
      const element = inner("element");
      return element.includes(" ") ? `(${element})[]` : `${element}[]`;
    }
    case "optional":
      return `${inner("innerType")} | undefined`;
    case "nullable":
      return `${inner("innerType")} | null`;
    case "default":
    case "prefault":
    case "readonly":
    case "catch":
    case "nonoptional":
      return inner("innerType");
    case "pipe":
      return inner("in");
    case "lazy":
      return "lazy";
    case "union":
      return (def.options as z.ZodType[]).map((option) => describeType(option, depth + 1)).join(" | ");
    case "literal":
      return (def.values as unknown[]).map((value) => JSON.stringify(value)).join(" | ");
    case "enum":
      return Object.values(def.entries as Record<string, unknown>)
        .map((value) => JSON.stringify(value))
        .join(" | ");
    case "object":
      return `{ ${Object.keys(def.shape as object).join(", ")} }`;
    case "record":
      return `Record<${inner("keyType")}, ${inner("valueType")}>`;
    case "custom":
      return "custom";
    default:
      return def.type;
  }
}

/** True when the schema describes a list (also optional/nullable lists and unions of lists): the auto-variadic rule. */
export function isListSchema(schema: z.ZodType): boolean {
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  switch (def.type) {
    case "array":
      return true;
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "readonly":
    case "nonoptional":
      return isListSchema(def.innerType as z.ZodType);
    case "union": {
      const options = (def.options as z.ZodType[]).filter((option) => !isNullish(option));
      return options.length > 0 && options.every(isListSchema);
    }
    default:
      return false;
  }
}

function isNullish(schema: z.ZodType): boolean {
  const type = schema._zod.def.type;
  return type === "null" || type === "undefined";
}
