type JsonSchema = Readonly<Record<string, unknown>>;

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function mapValues(value: unknown, fn: (schema: JsonSchema) => JsonSchema): unknown {
  if (!isSchema(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, isSchema(item) ? fn(item) : item]),
  );
}

/**
 * Returns a copy of a JSON Schema that OpenAI's strict mode accepts: every object gets
 * `additionalProperties: false` and lists all its properties in `required`, recursively through
 * `properties`, `items`, `$defs` / `definitions` and `anyOf` / `oneOf` / `allOf`. The input is not changed.
 *
 * Note that strict mode makes every property required; an optional property should allow `null`.
 *
 * @param schema - a JSON Schema
 */
export function makeSchemaStrict(schema: JsonSchema): Record<string, unknown> {
  const out: Record<string, unknown> = { ...schema };
  if (out.type === "object" || isSchema(out.properties)) {
    out.additionalProperties = false;
    if (isSchema(out.properties)) {
      out.required = Object.keys(out.properties);
      out.properties = mapValues(out.properties, makeSchemaStrict);
    }
  }
  if (isSchema(out.items)) out.items = makeSchemaStrict(out.items);
  for (const key of ["$defs", "definitions"])
    if (isSchema(out[key])) out[key] = mapValues(out[key], makeSchemaStrict);
  for (const key of ["anyOf", "oneOf", "allOf"]) {
    const list = out[key];
    if (Array.isArray(list))
      out[key] = list.map((item: unknown) => (isSchema(item) ? makeSchemaStrict(item) : item));
  }
  return out;
}
