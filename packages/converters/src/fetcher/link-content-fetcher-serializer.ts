import type { ComponentSerializer } from "@junction/core";
import type { ResolveHost } from "./resolve-host.js";

/** The serializer's view of the params: only `resolveHost` needs care. */
interface FetcherParams {
  readonly resolveHost?: ResolveHost | undefined;
}

/**
 * Writes the params as `init_parameters`, with `resolveHost` by registered function name (a custom
 * resolver must be registered with `registry.registerFunction(name, fn)`); reads them back.
 */
export const linkContentFetcherSerializer: ComponentSerializer<FetcherParams> = {
  toInitParameters(params, context) {
    const { resolveHost, ...rest } = params;
    const out = context.serializeValue(rest, []) as Record<string, unknown>;
    if (resolveHost !== undefined) out.resolveHost = context.functionName(resolveHost, "resolveHost");
    return out;
  },
  fromInitParameters(initParameters, context) {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(initParameters)) if (value !== null) out[key] = value;
    if (out.resolveHost !== undefined)
      out.resolveHost = context.resolveFunction(out.resolveHost, "resolveHost");
    return out;
  },
};
