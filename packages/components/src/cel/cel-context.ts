import { DataViews } from "../data-view.js";
import { chargeStep } from "./cel-budget.js";

/** The data an expression sees for one run, built lazily from the component's inputs. */
export interface CelRun {
  /** The variables as CEL data; each input is copied on first use only. */
  readonly context: Readonly<Record<string, unknown>>;
  /** Finds the original object of a copied input value. */
  readonly original: (view: unknown) => unknown;
}

/**
 * Prepares the CEL context of one run: a prototype-less object whose entries are lazy views of the
 * inputs as plain CEL data (integral numbers as `int`, `undefined` as `null`): a value is converted the
 * first time an expression reads it, element by element (see `DataViews`).
 *
 * @param inputs - the component's inputs
 * @param names - the variables the expressions may read
 */
export function celRun(inputs: Readonly<Record<string, unknown>>, names: Iterable<string>): CelRun {
  const views = new DataViews({ integers: "bigint", lazy: true, onConvert: chargeStep });
  const context: Record<string, unknown> = Object.create(null);
  for (const name of names) {
    let cached: { value: unknown } | undefined;
    Object.defineProperty(context, name, {
      enumerable: true,
      get: () => {
        cached ??= { value: views.view(inputs[name], [name]) };
        return cached.value;
      },
    });
  }
  return Object.freeze({ context, original: (view: unknown) => views.original(view) });
}
