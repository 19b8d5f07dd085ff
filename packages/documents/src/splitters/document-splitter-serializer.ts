import type { ComponentSerializer } from "@junction/core";

/** A custom splitting function: the text in, the chunks' texts out (Haystack's `splitting_function`). */
export type SplittingFunction = (text: string) => string[];

/** The serializer's view of the params: only `splittingFunction` needs care. */
interface SplitterParams {
  readonly splittingFunction?: SplittingFunction | undefined;
}

/**
 * Writes `DocumentSplitter`'s params as `init_parameters`, with `splittingFunction` by registered function
 * name (register it with `registry.registerFunction(name, fn)`, where Haystack writes the function's
 * import path); reads them back through the registry.
 */
export const documentSplitterSerializer: ComponentSerializer<SplitterParams> = {
  toInitParameters(params, context) {
    const { splittingFunction, ...rest } = params;
    const out = context.serializeValue(rest, []) as Record<string, unknown>;
    if (splittingFunction !== undefined) {
      out.splittingFunction = context.functionName(splittingFunction, "splittingFunction");
    }
    return out;
  },
  fromInitParameters(initParameters, context) {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(initParameters)) if (value !== null) out[key] = value;
    if (out.splittingFunction !== undefined) {
      out.splittingFunction = context.resolveFunction(out.splittingFunction, "splittingFunction");
    }
    return out;
  },
};
