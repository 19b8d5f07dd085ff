import type { z } from "zod";
import type { Component } from "../component/contract.js";
import type { IsOptionalSpec } from "../component/types.js";
import type { ComponentMap } from "../pipeline/builder-types.js";
import type { InputSpecs, OutputSpecs, VariadicSpec } from "../sockets/sockets.js";

/**
 * Type-level machinery of `SuperComponent`: the wrapped pipeline's component map (kept by the typed
 * builder) turned into the sockets of the wrapping component, so `connect` type-checks across the
 * boundary. The runtime resolution in `super-mapping.ts` is the contract; these types mirror it.
 */

export type { TypedPipeline } from "../pipeline/typed-pipeline.js";

type InputSpecsOf<C> = C extends Component<infer TInputs, any, any, any> ? TInputs : never;
type OutputSpecsOf<C> = C extends Component<any, infer TOutputs, any, any> ? TOutputs : never;

type InnerInputSpec<TMap, A> = A extends `${infer N}.${infer S}`
  ? N extends keyof TMap
    ? S extends keyof InputSpecsOf<TMap[N]>
      ? InputSpecsOf<TMap[N]>[S]
      : never
    : never
  : never;

type InnerOutputSpec<TMap, A> = A extends `${infer N}.${infer S}`
  ? N extends keyof TMap
    ? S extends keyof OutputSpecsOf<TMap[N]>
      ? OutputSpecsOf<TMap[N]>[S]
      : never
    : never
  : never;

type ElementOf<TSpec> = TSpec extends VariadicSpec<infer TElement> ? TElement : TSpec;

type UnionToIntersection<U> = (U extends unknown ? (value: U) => void : never) extends (
  value: infer I,
) => void
  ? I
  : never;

type Addresses<TTargets> = TTargets extends readonly (infer A)[] ? A : TTargets;

/** The value an outer input takes: fits every mapped socket (the intersection of their values). */
type CommonValue<TMap, TTargets> = UnionToIntersection<
  Exclude<z.input<ElementOf<InnerInputSpec<TMap, Addresses<TTargets>>>>, undefined>
>;

/** True only when every mapped socket is optional. */
type AllOptional<TMap, TTargets> = false extends (
  InnerInputSpec<TMap, Addresses<TTargets>> extends infer TSpec
    ? TSpec extends unknown
      ? IsOptionalSpec<TSpec>
      : never
    : never
)
  ? false
  : true;

type OuterInput<TMap, TTargets> =
  AllOptional<TMap, TTargets> extends true
    ? z.ZodOptional<z.ZodType<CommonValue<TMap, TTargets>, CommonValue<TMap, TTargets>>>
    : z.ZodType<CommonValue<TMap, TTargets>, CommonValue<TMap, TTargets>>;

/** An input mapping as written: `{ outer: "component.socket" | ["component.socket", ...] }`. */
export type AnyInputMapping = Readonly<Record<string, string | readonly string[]>>;

/** An output mapping as written: `{ "component.socket": "outer" }`. */
export type AnyOutputMapping = Readonly<Record<string, string>>;

/** The input sockets of a `SuperComponent` (loosely typed when the pipeline or the mapping is not known). */
export type SuperInputSpecs<TMap extends ComponentMap, TInputMapping> = string extends keyof TMap
  ? InputSpecs
  : TInputMapping extends AnyInputMapping
    ? { readonly [K in keyof TInputMapping]: OuterInput<TMap, TInputMapping[K]> }
    : InputSpecs;

/** The output sockets of a `SuperComponent` (loosely typed when the pipeline or the mapping is not known). */
export type SuperOutputSpecs<TMap extends ComponentMap, TOutputMapping> = string extends keyof TMap
  ? OutputSpecs
  : TOutputMapping extends AnyOutputMapping
    ? {
        readonly [A in keyof TOutputMapping as TOutputMapping[A] & string]: InnerOutputSpec<TMap, A> &
          z.ZodType;
      }
    : OutputSpecs;
