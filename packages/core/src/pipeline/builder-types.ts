import type { z } from "zod";
import type { AnyComponent, Component } from "../component/contract.js";
import type { VariadicSpec } from "../sockets/sockets.js";

/**
 * Type-level machinery of the typed pipeline builder: socket addresses as template-literal types built
 * from the components added so far, and a branded error type that turns a wrong connection into a
 * readable compiler message.
 */

declare const connectionErrorBrand: unique symbol;

/** A compile-time error: a parameter of this type cannot be satisfied, and the message shows in the diagnostic. */
export interface PipelineTypeError<TMessage extends string> {
  readonly [connectionErrorBrand]: TMessage;
}

/** The components added to a builder so far, by name. */
export type ComponentMap = Record<string, AnyComponent>;

type InputSpecsOf<C> = C extends Component<infer TInputs, any, any, any> ? TInputs : never;
type OutputSpecsOf<C> = C extends Component<any, infer TOutputs, any, any> ? TOutputs : never;

/** Every valid sender address: `"component"` or `"component.socket"` for each output socket. */
export type OutputAddress<TMap extends ComponentMap> = {
  [N in keyof TMap & string]: N | `${N}.${keyof OutputSpecsOf<TMap[N]> & string}`;
}[keyof TMap & string];

/** Every valid receiver address: `"component"` or `"component.socket"` for each input socket. */
export type InputAddress<TMap extends ComponentMap> = {
  [N in keyof TMap & string]: N | `${N}.${keyof InputSpecsOf<TMap[N]> & string}`;
}[keyof TMap & string];

type SenderValue<TMap extends ComponentMap, A extends string> = A extends `${infer N}.${infer S}`
  ? N extends keyof TMap
    ? S extends keyof OutputSpecsOf<TMap[N]>
      ? z.output<OutputSpecsOf<TMap[N]>[S]>
      : never
    : never
  : never;

type ReceiverValue<TMap extends ComponentMap, A extends string> = A extends `${infer N}.${infer S}`
  ? N extends keyof TMap
    ? S extends keyof InputSpecsOf<TMap[N]>
      ? InputSpecsOf<TMap[N]>[S] extends VariadicSpec<infer TElement>
        ? z.input<TElement>
        : z.input<InputSpecsOf<TMap[N]>[S]>
      : never
    : never
  : never;

type Fits<TSender, TReceiver> = [TSender] extends [TReceiver] ? true : false;

/**
 * `unknown` when a value of sender socket `S` fits receiver socket `R` (or either side names only a
 * component, which the runtime resolves); otherwise a {@link PipelineTypeError}.
 */
export type CheckConnection<
  TMap extends ComponentMap,
  S extends string,
  R extends string,
> = S extends `${string}.${string}`
  ? R extends `${string}.${string}`
    ? Fits<SenderValue<TMap, S>, ReceiverValue<TMap, R>> extends true
      ? unknown
      : PipelineTypeError<`Socket types do not match: "${S}" cannot feed "${R}". Connect sockets whose types match, or use pipeline.connect for a connection that needs a conversion.`>
    : unknown
  : unknown;

/** `unknown` when `N` can be added to `TMap`; otherwise a {@link PipelineTypeError}. */
export type CheckName<TMap extends ComponentMap, N extends string> = N extends keyof TMap
  ? PipelineTypeError<`A component named "${N}" was already added. Choose another name.`>
  : N extends `${string}.${string}`
    ? PipelineTypeError<`Component names cannot contain ".": "${N}".`>
    : unknown;
