import { DataViewError, DataViews, setData } from "../data-view.js";

/** The variables of one render, copied into plain data, and the way back to the originals. */
export interface TemplateScope {
  /** A prototype-less object of the variables as plain data. */
  readonly scope: Record<string, unknown>;
  /** Finds the original object of a copied value. */
  readonly original: (view: unknown) => unknown;
}

/**
 * Copies template variables into plain data (numbers stay numbers; a `ChatMessage` becomes
 * `{ role, text, texts, tool_calls, meta, ... }`). `undefined` values are left out, so the template
 * sees them as missing.
 *
 * @param values - the variables by name
 * @throws DataViewError when a value is too deep, too large or cyclic
 */
export function templateScope(values: Readonly<Record<string, unknown>>): TemplateScope {
  const views = new DataViews({ integers: "number" });
  const scope: Record<string, unknown> = Object.create(null);
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) continue;
    setData(scope, name, views.view(value, [name]));
  }
  return { scope, original: (view) => views.original(view) };
}

export { DataViewError };
