import { MemoryLogger } from "@junction/core";
import { describe, expect, test } from "vitest";
import { applyFilterPolicy, type Filter } from "../src/index.js";

const lang: Filter = { field: "meta.lang", operator: "==", value: "en" };
const year: Filter = { field: "meta.year", operator: ">", value: 2020 };
const otherYear: Filter = { field: "meta.year", operator: "<", value: 2030 };

describe("applyFilterPolicy", () => {
  test("replace: runtime filters win when present, else init filters", () => {
    expect(applyFilterPolicy("replace", lang, year)).toBe(year);
    expect(applyFilterPolicy("replace", lang, undefined)).toBe(lang);
    expect(applyFilterPolicy("merge", lang, undefined)).toBe(lang);
    expect(applyFilterPolicy("merge", undefined, year)).toBe(year);
    expect(applyFilterPolicy("merge", {} as Filter, year)).toBe(year);
    expect(applyFilterPolicy("replace", undefined, undefined)).toBeUndefined();
  });

  test("merge: two comparisons on different fields are ANDed; on one field the runtime one wins", () => {
    const logger = new MemoryLogger();
    expect(applyFilterPolicy("merge", lang, year, logger)).toEqual({
      operator: "AND",
      conditions: [lang, year],
    });
    expect(applyFilterPolicy("merge", year, otherYear, logger)).toBe(otherYear);
    expect(logger.records.map((record) => record.level)).toEqual(["warn"]);
  });

  test("merge: init comparison + runtime AND appends unless the field is there", () => {
    const logger = new MemoryLogger();
    const runtime: Filter = { operator: "AND", conditions: [year] };
    expect(applyFilterPolicy("merge", lang, runtime, logger)).toEqual({
      operator: "AND",
      conditions: [year, lang],
    });
    expect(runtime).toEqual({ operator: "AND", conditions: [year] });
    expect(applyFilterPolicy("merge", otherYear, runtime, logger)).toEqual({
      operator: "AND",
      conditions: [year],
    });
    const or: Filter = { operator: "OR", conditions: [year] };
    expect(applyFilterPolicy("merge", lang, or, logger)).toBe(or);
    expect(logger.records).toHaveLength(2);
  });

  test("merge: init AND + runtime comparison replaces the same field and appends", () => {
    const logger = new MemoryLogger();
    const init: Filter = { operator: "AND", conditions: [lang, year] };
    expect(applyFilterPolicy("merge", init, otherYear, logger)).toEqual({
      operator: "AND",
      conditions: [lang, otherYear],
    });
    expect(applyFilterPolicy("merge", { operator: "OR", conditions: [lang] }, year, logger)).toBe(year);
    expect(logger.records).toHaveLength(2);
  });

  test("merge: two logical filters concatenate with one operator; different operators → runtime, warned", () => {
    const logger = new MemoryLogger();
    const a: Filter = { operator: "OR", conditions: [lang] };
    const b: Filter = { operator: "OR", conditions: [year] };
    expect(applyFilterPolicy("merge", a, b, logger)).toEqual({ operator: "OR", conditions: [lang, year] });
    expect(logger.records).toHaveLength(0);
    const c: Filter = { operator: "AND", conditions: [year] };
    expect(applyFilterPolicy("merge", a, c, logger)).toBe(c);
    expect(logger.messages("warn")[0]).toContain('"OR" (init) and "AND" (runtime) differ');
  });
});
