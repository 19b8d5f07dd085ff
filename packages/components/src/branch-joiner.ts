import {
  type Component,
  type ComponentDefinition,
  ComponentError,
  defineComponent,
  greedyVariadic,
  type VariadicSpec,
} from "@junction/core";
import { z } from "zod";
import { type SocketTypeInput, socketTypeParam, socketTypeToJSON } from "./socket-type.js";

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
export const BranchJoiner: BranchJoinerClass = defineComponent({
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
}) as unknown as BranchJoinerClass;

type SchemaOf<T> = T extends z.ZodType ? T : z.ZodType;

/** A `BranchJoiner` instance whose socket type is `TType` (the default accepts every joiner). */
export type BranchJoiner<TType extends SocketTypeInput = z.ZodType> = Component<
  { readonly value: VariadicSpec<SchemaOf<TType>, "greedy"> },
  { readonly value: SchemaOf<TType> },
  { readonly type: z.ZodType }
>;

/** The `BranchJoiner` class: `new BranchJoiner({ type })` types both sockets with `type`. */
export interface BranchJoinerClass {
  /**
   * Creates a joiner.
   *
   * @param params - `type`: the socket type of both ends (a zod schema; JSON Schema in documents)
   */
  new <TType extends SocketTypeInput>(params: { readonly type: TType }): BranchJoiner<TType>;
  /** The registered type name, `"junction.BranchJoiner"`. */
  readonly type: string;
  /** The definition the class was made from. */
  readonly definition: ComponentDefinition<any, any, any, any, any>;
}
