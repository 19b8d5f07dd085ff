import { ComponentError, defineComponent, greedyVariadic } from "@junction/core";
import { z } from "zod";
import { socketTypeParam, socketTypeToJSON } from "./socket-type.js";

/**
 * Joins several branches of a pipeline into one: a greedy variadic input that forwards the single value
 * it receives on `value`. It is the entry point of loops (the initial input and the loop-back both
 * connect to it) and the meeting point after a router's mutually exclusive branches.
 *
 * `type` is the socket type of both ends (a zod schema; JSON Schema in documents).
 *
 * @example
 * ```ts
 * const joiner = new BranchJoiner({ type: z.array(chatMessageSchema) });
 * pipeline.addComponent("joiner", joiner);
 * pipeline.connect("joiner.value", "llm.messages");
 * pipeline.connect("validator.invalid_replies", "joiner.value"); // loop back
 * ```
 */
export const BranchJoiner = defineComponent({
  type: "junction.BranchJoiner",
  description: "Forwards the one value it receives from any of its senders (merges branches, enters loops).",
  params: z.object({ type: socketTypeParam }),
  inputs: (params) => ({ value: greedyVariadic(params.type) }),
  outputs: (params) => ({ value: params.type }),
  run: ({ value }, { componentName }) => {
    if (value.length !== 1) {
      throw new ComponentError(
        `BranchJoiner${componentName === undefined ? "" : ` "${componentName}"`}.run: expected exactly one value on "value", got ${value.length}. A BranchJoiner forwards one branch at a time; use a ListJoiner to combine several values.`,
        { componentType: "junction.BranchJoiner", componentName, socket: "value" },
      );
    }
    return { value: value[0] };
  },
  serializer: {
    toInitParameters: (params) => ({ type: socketTypeToJSON(params.type) }),
    fromInitParameters: (initParameters) => initParameters,
  },
});

/** A `BranchJoiner` instance (the class doubles as the instance type: `function f(x: BranchJoiner)`). */
export type BranchJoiner = InstanceType<typeof BranchJoiner>;
