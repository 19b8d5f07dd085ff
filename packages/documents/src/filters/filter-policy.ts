import { getDefaultLogger, type Logger } from "@junction/core";
import type { ComparisonFilter, Filter, LogicalFilter } from "./filter-types.js";

/**
 * How a retriever combines the filters it was built with and the filters of one run: `"replace"`
 * (Haystack's default) uses the run's filters when given, `"merge"` combines both with `AND`.
 */
export type FilterPolicy = "replace" | "merge";

/** Every {@link FilterPolicy}, for validation and schemas. */
export const filterPolicies = ["replace", "merge"] as const;

/**
 * The filters a retriever uses for one run, by Haystack's rules
 * (`haystack/document_stores/types/filter_policy.py`). With `"replace"`, or when either side is empty,
 * the runtime filters win when present, else the init filters. With `"merge"`:
 * - two comparisons on different fields → `AND` of both; on the same field → the runtime one (warning);
 * - init comparison + runtime `AND` → the comparison is appended unless the runtime filter already has
 *   that field (then it is dropped, warning); a runtime `OR`/`NOT` is used alone (warning);
 * - init `AND` + runtime comparison → the comparison replaces any init condition on its field and is
 *   appended; an init `OR`/`NOT` is dropped and the runtime comparison used alone (warning);
 * - two logical filters with the same operator → their conditions concatenated; different operators →
 *   the runtime filter alone (warning).
 *
 * Inputs are never mutated (Haystack appends to the runtime filter's list in place).
 *
 * @param policy - `"replace"` or `"merge"`
 * @param initFilters - the filters given when the retriever was built
 * @param runtimeFilters - the filters given to this run
 * @param logger - where the warnings go (the default logger when left out)
 * @returns the filters to use, or `undefined` for none
 * @example
 * ```ts
 * applyFilterPolicy("merge", { field: "meta.lang", operator: "==", value: "en" },
 *   { field: "meta.year", operator: ">", value: 2020 });
 * // { operator: "AND", conditions: [lang == en, year > 2020] }
 * ```
 */
export function applyFilterPolicy(
  policy: FilterPolicy,
  initFilters: Filter | undefined | null,
  runtimeFilters: Filter | undefined | null,
  logger: Logger = getDefaultLogger(),
): Filter | undefined {
  const init = isEmpty(initFilters) ? undefined : initFilters;
  const runtime = isEmpty(runtimeFilters) ? undefined : runtimeFilters;
  if (policy !== "merge" || init === undefined || runtime === undefined) return runtime ?? init;
  if (isComparison(init) && isComparison(runtime)) {
    if (init.field === runtime.field) {
      logger.warn(
        `applyFilterPolicy: the init filter on "${init.field}" is ignored because the runtime filter also filters on it.`,
        { initFilters: init, runtimeFilters: runtime },
      );
      return runtime;
    }
    return { operator: "AND", conditions: [init, runtime] };
  }
  if (isComparison(init) && isLogical(runtime)) {
    if (runtime.operator !== "AND") {
      logger.warn(
        `applyFilterPolicy: the runtime filter's operator is "${runtime.operator}", not "AND", so the init filter is ignored. Write the runtime filter with "AND" to merge them.`,
        { initFilters: init, runtimeFilters: runtime },
      );
      return runtime;
    }
    if (runtime.conditions.some((condition) => fieldOf(condition) === init.field)) {
      logger.warn(
        `applyFilterPolicy: the init filter on "${init.field}" is ignored because the runtime filters already filter on it.`,
        { initFilters: init, runtimeFilters: runtime },
      );
      return { operator: "AND", conditions: [...runtime.conditions] };
    }
    return { operator: "AND", conditions: [...runtime.conditions, init] };
  }
  if (isLogical(init) && isComparison(runtime)) {
    if (init.operator !== "AND") {
      logger.warn(
        `applyFilterPolicy: the init filter's operator is "${init.operator}", not "AND", so the init filter is ignored and only the runtime filter is used.`,
        { initFilters: init, runtimeFilters: runtime },
      );
      return runtime;
    }
    let conditions = init.conditions;
    if (conditions.some((condition) => fieldOf(condition) === runtime.field)) {
      logger.warn(
        `applyFilterPolicy: the runtime filter on "${runtime.field}" replaces the init filter on the same field.`,
        { initFilters: init, runtimeFilters: runtime },
      );
      conditions = conditions.filter((condition) => fieldOf(condition) !== runtime.field);
    }
    return { operator: "AND", conditions: [...conditions, runtime] };
  }
  if (isLogical(init) && isLogical(runtime)) {
    if (init.operator === runtime.operator) {
      return { operator: init.operator, conditions: [...init.conditions, ...runtime.conditions] };
    }
    logger.warn(
      `applyFilterPolicy: the logical operators "${init.operator}" (init) and "${runtime.operator}" (runtime) differ, so the init filter is ignored and only the runtime filter is used. Use the same operator to merge them.`,
      { initFilters: init, runtimeFilters: runtime },
    );
    return runtime;
  }
  return runtime;
}

function isEmpty(filter: Filter | undefined | null): filter is undefined | null {
  return filter === undefined || filter === null || Object.keys(filter).length === 0;
}

function isComparison(filter: Filter): filter is ComparisonFilter {
  return "field" in filter && "operator" in filter && "value" in filter;
}

function isLogical(filter: Filter): filter is LogicalFilter {
  return "operator" in filter && "conditions" in filter;
}

function fieldOf(filter: Filter): unknown {
  return "field" in filter ? filter.field : undefined;
}
