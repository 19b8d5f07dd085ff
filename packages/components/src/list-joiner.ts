import { defineComponent, variadic } from "@junction/core";
import { z } from "zod";
import { socketTypeParam, socketTypeToJSON } from "./socket-type.js";

const anyList = z.array(z.any());

/**
 * Concatenates the lists it receives from several senders into one flat list, in the order the
 * pipeline delivers them (the engine's deterministic sender order, identical at any concurrency).
 *
 * `listType` (optional) is the type of the lists, e.g. `z.array(chatMessageSchema)`; without it the
 * sockets take lists of anything.
 *
 * @example
 * ```ts
 * const joiner = new ListJoiner({ listType: z.array(z.string()) });
 * await joiner.run({ values: [["a"], ["b", "c"]] }); // { values: ["a", "b", "c"] }
 * ```
 */
export const ListJoiner = defineComponent({
  type: "junction.ListJoiner",
  description: "Concatenates the lists received from every sender into one list.",
  params: z.object({ listType: socketTypeParam.nullish() }),
  inputs: (params) => ({ values: variadic(params.listType ?? anyList) }),
  outputs: (params) => ({ values: params.listType ?? anyList }),
  run: ({ values }) => ({ values: values.flat(1) as unknown[] }),
  serializer: {
    toInitParameters: (params) =>
      params.listType === undefined || params.listType === null
        ? {}
        : { listType: socketTypeToJSON(params.listType) },
    fromInitParameters: (initParameters) => initParameters,
  },
});

/** A `ListJoiner` instance (the class doubles as the instance type: `function f(x: ListJoiner)`). */
export type ListJoiner = InstanceType<typeof ListJoiner>;
