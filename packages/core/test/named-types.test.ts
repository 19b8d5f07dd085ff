import {
  ComponentError,
  checkCompatibility,
  defineComponent,
  defineNamedType,
  getNamedType,
  namedTypeName,
  namedTypeNames,
  socketSchemaToJSON,
} from "@junction/core";
import { describe, expect, test } from "vitest";
import { z } from "zod";

class Invoice {
  constructor(
    readonly id: string,
    readonly total: number,
  ) {}
  describe(): string {
    return `${this.id}: ${this.total}`;
  }
}

const invoiceSchema = defineNamedType("named_test.Invoice", z.instanceof(Invoice));

describe("the named type registry", () => {
  test("returns the schema and finds it by name and by schema", () => {
    expect(invoiceSchema._zod.def.type).toBe("custom");
    expect(namedTypeName(invoiceSchema)).toBe("named_test.Invoice");
    expect(getNamedType("named_test.Invoice")).toBe(invoiceSchema);
    expect(getNamedType("named_test.Missing")).toBeUndefined();
    expect(namedTypeName(z.instanceof(Invoice))).toBeUndefined();
  });

  test("lists every name, sorted", () => {
    defineNamedType("named_test.A", z.instanceof(Map));
    const names = namedTypeNames();
    expect(names).toContain("named_test.Invoice");
    expect(names).toEqual([...names].sort());
  });

  test("registering the same schema under the same name again is a no-op", () => {
    expect(defineNamedType("named_test.Invoice", invoiceSchema)).toBe(invoiceSchema);
  });

  test("a taken name or an already named schema is an error", () => {
    expect(() => defineNamedType("named_test.Invoice", z.instanceof(Invoice))).toThrow(ComponentError);
    expect(() => defineNamedType("named_test.Invoice", z.instanceof(Invoice))).toThrow(
      /"named_test.Invoice" is already registered/,
    );
    expect(() => defineNamedType("named_test.Bill", invoiceSchema)).toThrow(
      /already registered as "named_test.Invoice"/,
    );
  });
});

describe("named types as socket types", () => {
  const Totals = defineComponent({
    type: "named_test.Totals",
    inputs: { invoices: z.array(invoiceSchema) },
    outputs: { total: z.number(), summary: z.string() },
    run: ({ invoices }) => ({
      total: invoices.reduce((sum, invoice) => sum + invoice.total, 0),
      summary: invoices.map((invoice) => invoice.describe()).join(", "),
    }),
  });

  test("instances with methods flow through a run", async () => {
    const result = await new Totals().run({ invoices: [new Invoice("a", 2), new Invoice("b", 3)] });
    expect(result).toEqual({ total: 5, summary: "a: 2, b: 3" });
  });

  test("a plain object with the same fields is rejected", async () => {
    await expect(new Totals().run({ invoices: [{ id: "a", total: 2 } as never] })).rejects.toThrow(
      ComponentError,
    );
  });

  test("compare by identity", () => {
    const lookalike = defineNamedType("named_test.Lookalike", z.instanceof(Invoice));
    expect(checkCompatibility(invoiceSchema, invoiceSchema).compatible).toBe(true);
    expect(checkCompatibility(z.array(invoiceSchema), z.array(invoiceSchema).optional()).compatible).toBe(
      true,
    );
    expect(checkCompatibility(invoiceSchema, lookalike).compatible).toBe(false);
    expect(checkCompatibility(z.instanceof(Invoice), invoiceSchema).compatible).toBe(false);
    expect(checkCompatibility(invoiceSchema, z.instanceof(Invoice)).compatible).toBe(false);
    expect(checkCompatibility(invoiceSchema, z.unknown()).compatible).toBe(true);
  });

  test("a named object type flows into matching structural receivers, not the other way", () => {
    const point = defineNamedType("named_test.Point", z.object({ x: z.number(), y: z.number() }));
    expect(checkCompatibility(point, z.object({ x: z.number() })).compatible).toBe(true);
    expect(checkCompatibility(z.object({ x: z.number(), y: z.number() }), point).compatible).toBe(false);
  });

  test("are written to JSON by name", () => {
    expect(socketSchemaToJSON(z.array(invoiceSchema))).toMatchObject({
      type: "array",
      items: { "x-junction-type": "named_test.Invoice" },
    });
  });
});
