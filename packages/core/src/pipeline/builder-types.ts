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

type ResultOf<C> = C extends { run(...args: any[]): Promise<infer TResult> } ? TResult : never;

/**
 * The value of output `S` of component `C`: from its output schema, or — when the instance type is an
 * intersection (a class with methods added, such as `ScriptedChatGenerator`), from which the schemas
 * cannot be inferred — from the result type of its `run`.
 */
type SenderValueOf<C, S extends string> = string extends keyof OutputSpecsOf<C>
  ? S extends keyof ResultOf<C>
    ? Exclude<ResultOf<C>[S], undefined>
    : unknown
  : S extends keyof OutputSpecsOf<C>
    ? z.output<OutputSpecsOf<C>[S]>
    : never;

type SenderValue<TMap extends ComponentMap, A extends string> = A extends `${infer N}.${infer S}`
  ? N extends keyof TMap
    ? SenderValueOf<TMap[N], S>
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
      : unknown extends SenderValue<TMap, S>
        ? PipelineTypeError<`"${S}" has no static type (its component declares it as unknown), so it cannot be checked against "${R}". Declare the output socket's schema, or connect with pipeline.connect, which checks the schemas when it runs.`>
        : PipelineTypeError<`Socket types do not match: a value of "${S}" is not assignable to "${R}". Compare the two sockets' schemas; only when the engine converts between them (ChatMessage and string) connect with pipeline.connect, which checks at run time.`>
    : unknown
  : unknown;

/** `unknown` when `N` can be added to `TMap`; otherwise a {@link PipelineTypeError}. */
export type CheckName<TMap extends ComponentMap, N extends string> = N extends keyof TMap
  ? PipelineTypeError<`A component named "${N}" was already added. Choose another name.`>
  : N extends `${string}.${string}`
    ? PipelineTypeError<`Component names cannot contain ".": "${N}".`>
    : unknown;
