import type { AnyComponent } from "../component/contract.js";
import type {
  CheckConnection,
  CheckName,
  ComponentMap,
  InputAddress,
  OutputAddress,
} from "./builder-types.js";
import type { Pipeline } from "./pipeline.js";
import type { ConsumedBy, FedBy, TypedPipeline } from "./typed-pipeline.js";

/**
 * A typed way to assemble a {@link Pipeline}: each `add` records the component's type, so `connect`
 * accepts only addresses that exist and sockets whose types fit — a mistake is a compile error with a
 * readable message. The runtime checks of `Pipeline.connect` still run; they are the contract.
 *
 * @example
 * ```ts
 * const pipeline = Pipeline.builder()
 *   .add("adder", new AddFixedValue())
 *   .add("double", new Double())
 *   .connect("adder.result", "double.value")
 *   .build();
 * ```
 */
export class PipelineBuilder<
  TMap extends ComponentMap,
  TFed extends string = never,
  TConsumed extends string = never,
> {
  readonly #pipeline: Pipeline;

  /** @param pipeline - the pipeline to add to (use `Pipeline.builder()`) */
  constructor(pipeline: Pipeline) {
    this.#pipeline = pipeline;
  }

  /**
   * Adds a component.
   *
   * @param name - a new name without dots
   * @param component - the instance
   */
  add<const N extends string, C extends AnyComponent>(
    name: N & CheckName<TMap, N>,
    component: C,
  ): PipelineBuilder<TMap & { [K in N]: C }, TFed, TConsumed> {
    this.#pipeline.addComponent(name, component);
    return this as unknown as PipelineBuilder<TMap & { [K in N]: C }, TFed, TConsumed>;
  }

  /**
   * Connects two sockets (`"component.socket"`, or `"component"` when unambiguous).
   *
   * @param sender - an output address of a component added earlier
   * @param receiver - an input address of a component added earlier
   */
  connect<const S extends OutputAddress<TMap>, const R extends InputAddress<TMap>>(
    sender: S,
    receiver: R & CheckConnection<TMap, S, R>,
  ): PipelineBuilder<TMap, TFed | FedBy<TMap, S, R>, TConsumed | ConsumedBy<TMap, S, R>> {
    this.#pipeline.connect(sender, receiver);
    return this as unknown as PipelineBuilder<
      TMap,
      TFed | FedBy<TMap, S, R>,
      TConsumed | ConsumedBy<TMap, S, R>
    >;
  }

  /**
   * The assembled pipeline: a plain `Pipeline` whose `run` and `stream` are typed from the components
   * and connections (see {@link TypedPipeline}); a `SuperComponent` wrapping it keeps their socket types.
   */
  build(): TypedPipeline<TMap, TFed, TConsumed> {
    return this.#pipeline as TypedPipeline<TMap, TFed, TConsumed>;
  }
}
