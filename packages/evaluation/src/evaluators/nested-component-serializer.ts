import type { ComponentSerializer } from "@junction/core";

/**
 * A serializer for evaluators that hold a component in one param (the judges' `chatGenerator`, SAS's
 * `embedder`): that param is written as a nested `{ type, init_parameters }` document and read back
 * through the registry; every other param is plain JSON.
 *
 * @param key - the param holding the component
 */
export function nestedComponentSerializer(key: string): ComponentSerializer<Record<string, unknown>> {
  return {
    toInitParameters: (params, context) => {
      const { [key]: component, ...rest } = params;
      return {
        ...(context.serializeValue(rest, []) as Record<string, unknown>),
        [key]: context.serializeComponent(component as never, key),
      };
    },
    fromInitParameters: (initParameters, context) => ({
      ...initParameters,
      [key]: context.deserializeComponent(initParameters[key], key),
    }),
  };
}
