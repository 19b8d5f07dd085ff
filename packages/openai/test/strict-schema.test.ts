import { makeSchemaStrict } from "@junction/openai";
import { describe, expect, it } from "vitest";

describe("makeSchemaStrict", () => {
  it("closes a flat object and requires every property", () => {
    const schema = {
      type: "object",
      properties: { a: { type: "string" }, b: { type: "integer" } },
      required: ["a"],
    };
    expect(makeSchemaStrict(schema)).toEqual({
      ...schema,
      required: ["a", "b"],
      additionalProperties: false,
    });
  });

  it("walks nested objects, array items, $defs and combinators", () => {
    const schema = {
      type: "object",
      properties: {
        address: { type: "object", properties: { city: { type: "string" } } },
        tags: { type: "array", items: { type: "object", properties: { name: { type: "string" } } } },
        either: { anyOf: [{ type: "object", properties: { x: { type: "number" } } }, { type: "null" }] },
        ref: { $ref: "#/$defs/Point" },
      },
      $defs: { Point: { type: "object", properties: { x: { type: "number" }, y: { type: "number" } } } },
    };
    const strict = makeSchemaStrict(schema) as Record<string, any>;
    expect(strict.required).toEqual(["address", "tags", "either", "ref"]);
    expect(strict.properties.address).toMatchObject({ additionalProperties: false, required: ["city"] });
    expect(strict.properties.tags.items).toMatchObject({ additionalProperties: false, required: ["name"] });
    expect(strict.properties.either.anyOf[0]).toMatchObject({ additionalProperties: false, required: ["x"] });
    expect(strict.properties.either.anyOf[1]).toEqual({ type: "null" });
    expect(strict.$defs.Point).toMatchObject({ additionalProperties: false, required: ["x", "y"] });
    expect(strict.properties.ref).toEqual({ $ref: "#/$defs/Point" });
  });

  it("does not change its input", () => {
    const schema = {
      type: "object",
      properties: { a: { type: "object", properties: { b: { type: "string" } } } },
    };
    const copy = structuredClone(schema);
    makeSchemaStrict(schema);
    expect(schema).toEqual(copy);
  });
});
