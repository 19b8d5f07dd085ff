import { z } from "zod";
import { DeserializationError, formatIssues, type Issue } from "../errors/errors.js";
import { excerpt } from "../errors/excerpt.js";
import { defOf } from "./compat-atoms.js";
import { getNamedType, namedTypeNames } from "./named-types.js";

/**
 * Reading JSON Schema back into zod. Containers (objects, records, arrays, tuples, unions, references)
 * are read here so named types can sit anywhere inside them; leaves (strings, numbers with their
 * constraints) are handed to `z.fromJSONSchema`.
 */

/** The JSON Schema keyword that names a named socket type. */
export const namedTypeKeyword = "x-junction-type";
/** The JSON Schema keyword that marks a value that may be `undefined`. */
export const optionalKeyword = "x-junction-optional";

type Json = Record<string, unknown>;
type Path = (string | number)[];

/** Keywords this reader applies itself rather than handing to zod. */
const ownKeywords = new Set([
  namedTypeKeyword,
  optionalKeyword,
  "default",
  "description",
  "$schema",
  "$defs",
]);
const leafTypes = new Set(["string", "number", "integer", "boolean", "null"]);
/** Documents are untrusted: nesting is bounded so hostile input fails with an issue, not a stack overflow. */
const maxDepth = 200;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isPrimitive(value: unknown): value is string | number | boolean | null {
  return value === null || ["string", "number", "boolean"].includes(typeof value);
}

class Reader {
  readonly issues: Issue[] = [];
  readonly #root: unknown;
  readonly #references = new Map<string, z.ZodType>();

  constructor(root: unknown) {
    this.#root = root;
  }

  read(node: unknown, path: Path): z.ZodType {
    if (path.length > maxDepth)
      return this.#fail(path, `the schema is nested deeper than ${maxDepth} levels.`);
    if (node === true) return z.unknown();
    if (node === false) return z.never();
    if (!isObject(node)) return this.#fail(path, "expected a JSON Schema object.");
    let schema = this.#readCore(node, path);
    if (typeof node.description === "string" && !(namedTypeKeyword in node)) {
      schema = schema.describe(node.description);
    }
    if ("default" in node && !(namedTypeKeyword in node)) schema = schema.default(node.default as never);
    if (node[optionalKeyword] === true && !isOptional(schema)) schema = schema.optional();
    return schema;
  }

  #fail(path: Path, message: string): z.ZodType {
    this.issues.push({ path, message });
    return z.never();
  }

  #readCore(node: Json, path: Path): z.ZodType {
    if (namedTypeKeyword in node) return this.#named(node[namedTypeKeyword], [...path, namedTypeKeyword]);
    if (typeof node.$ref === "string") return this.#reference(node.$ref, path);
    if (Array.isArray(node.anyOf)) return this.#union(node.anyOf, [...path, "anyOf"]);
    if (Array.isArray(node.oneOf)) return this.#union(node.oneOf, [...path, "oneOf"]);
    if (Array.isArray(node.allOf)) {
      const parts = node.allOf.map((part, index) => this.read(part, [...path, "allOf", index]));
      return parts.reduce((left, right) => z.intersection(left, right), z.unknown() as z.ZodType);
    }
    if ("const" in node) {
      return isPrimitive(node.const)
        ? z.literal(node.const)
        : this.#fail([...path, "const"], "only string, number, boolean or null constants are supported.");
    }
    if (Array.isArray(node.enum)) {
      const values = node.enum;
      if (values.length === 0 || !values.every(isPrimitive)) {
        return this.#fail(
          [...path, "enum"],
          "expected a non-empty list of string, number, boolean or null values.",
        );
      }
      return z.literal(values as (string | number | boolean | null)[]);
    }
    const type = node.type;
    if (Array.isArray(type)) {
      const members = type.map((member, index) =>
        this.#readCore({ ...node, type: member }, [...path, "type", index]),
      );
      if (members.length === 0) return this.#fail([...path, "type"], "expected at least one type.");
      return members.length === 1 ? members[0]! : z.union(members as [z.ZodType, z.ZodType]);
    }
    if (type === "array") return this.#array(node, path);
    if (type === "object") return this.#object(node, path);
    if (typeof type === "string" && leafTypes.has(type)) return this.#leaf(node, path);
    const keywords = Object.keys(node).filter((key) => !ownKeywords.has(key));
    if (keywords.length === 0) return z.unknown();
    return this.#leaf(node, path);
  }

  #named(name: unknown, path: Path): z.ZodType {
    if (typeof name !== "string")
      return this.#fail(path, "the named type must be given by its name (a string).");
    const schema = getNamedType(name);
    if (schema !== undefined) return schema;
    const known = namedTypeNames();
    return this.#fail(
      path,
      `unknown named type "${excerpt(name)}". Import the package that defines it (known: ${
        known.length === 0 ? "none" : known.map((known) => `"${excerpt(known)}"`).join(", ")
      }) or register it with defineNamedType.`,
    );
  }

  #reference(reference: string, path: Path): z.ZodType {
    const existing = this.#references.get(reference);
    if (existing !== undefined) return existing;
    const target = this.#resolve(reference);
    if (target === undefined) {
      return this.#fail(
        [...path, "$ref"],
        `cannot resolve "${excerpt(reference)}"; only "#" and "#/$defs/<name>" are supported.`,
      );
    }
    let resolved: z.ZodType | undefined;
    const lazy = z.lazy(() => resolved ?? z.never());
    this.#references.set(reference, lazy);
    resolved = this.read(target, [...path, "$ref"]);
    if (defOf(resolved).type === "lazy") {
      // A reference that only leads to references describes nothing (and would never terminate).
      resolved = this.#fail([...path, "$ref"], `"${excerpt(reference)}" refers only to itself.`);
    }
    return lazy;
  }

  #resolve(reference: string): unknown {
    if (reference === "#") return this.#root;
    const match = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(reference);
    if (match === null || !isObject(this.#root)) return undefined;
    const definitions = this.#root[match[1]!];
    let name: string;
    try {
      name = decodeURIComponent(match[2]!);
    } catch {
      return undefined; // malformed percent-encoding: a reference to nothing (reported by the caller)
    }
    return isObject(definitions) && Object.hasOwn(definitions, name) ? definitions[name] : undefined;
  }

  #union(options: unknown[], path: Path): z.ZodType {
    const members = options.map((option, index) => this.read(option, [...path, index]));
    if (members.length === 0) return this.#fail(path, "expected at least one alternative.");
    return members.length === 1 ? members[0]! : z.union(members as [z.ZodType, z.ZodType]);
  }

  #array(node: Json, path: Path): z.ZodType {
    if (Array.isArray(node.prefixItems)) {
      const items = node.prefixItems.map((item, index) => this.read(item, [...path, "prefixItems", index]));
      const tuple = items as [z.ZodType, ...z.ZodType[]];
      if (node.items === false) return z.tuple(tuple);
      return z.tuple(tuple, this.read(node.items ?? true, [...path, "items"]));
    }
    let schema = z.array(this.read(node.items ?? true, [...path, "items"]));
    if (typeof node.minItems === "number") schema = schema.min(node.minItems);
    if (typeof node.maxItems === "number") schema = schema.max(node.maxItems);
    return schema;
  }

  #object(node: Json, path: Path): z.ZodType {
    const extra = node.additionalProperties;
    if (node.propertyNames !== undefined || (node.properties === undefined && isObject(extra))) {
      return this.#record(node, path);
    }
    const required = new Set(Array.isArray(node.required) ? node.required : []);
    const shape: Record<string, z.ZodType> = Object.create(null);
    const properties = isObject(node.properties) ? node.properties : {};
    for (const [key, value] of Object.entries(properties)) {
      const property = this.read(value, [...path, "properties", key]);
      shape[key] = required.has(key) || isOptional(property) ? property : property.optional();
    }
    if (extra === false) return z.strictObject(shape);
    if (extra === true || (isObject(extra) && Object.keys(extra).length === 0)) return z.looseObject(shape);
    if (isObject(extra)) return z.object(shape).catchall(this.read(extra, [...path, "additionalProperties"]));
    return z.object(shape);
  }

  #record(node: Json, path: Path): z.ZodType {
    const key =
      node.propertyNames === undefined
        ? z.string()
        : this.read(node.propertyNames, [...path, "propertyNames"]);
    const value = this.read(node.additionalProperties ?? true, [...path, "additionalProperties"]);
    const keyType = key as z.core.$ZodRecordKey;
    const keys = key._zod.values;
    const required = Array.isArray(node.required) ? node.required : [];
    if (keys !== undefined && ![...keys].every((name) => required.includes(name))) {
      return z.partialRecord(keyType, value);
    }
    return z.record(keyType, value);
  }

  #leaf(node: Json, path: Path): z.ZodType {
    const plain = Object.fromEntries(Object.entries(node).filter(([key]) => !ownKeywords.has(key)));
    try {
      return z.fromJSONSchema(plain as z.core.JSONSchema.JSONSchema) as z.ZodType;
    } catch (error) {
      return this.#fail(path, `unsupported JSON Schema: ${(error as Error).message}`);
    }
  }
}

/** True when the schema already accepts a missing value (optional, or with a default). */
function isOptional(schema: z.ZodType): boolean {
  const optin = (schema._zod as { optin?: string }).optin;
  return optin === "optional" || optin === "defaulted";
}

/**
 * Reads a JSON Schema into a zod schema; throws a {@link DeserializationError} listing every problem.
 *
 * @param json - the JSON Schema
 */
export function readSocketSchema(json: unknown): z.ZodType {
  const reader = new Reader(json);
  const schema = reader.read(json, []);
  if (reader.issues.length > 0) {
    throw new DeserializationError(
      `socketSchemaFromJSON: the socket schema cannot be read:\n${formatIssues(reader.issues)}`,
      { issues: reader.issues },
    );
  }
  return schema;
}
