import type { AnyComponent } from "../component.js";
import type {
  CheckConnection,
  CheckName,
  ComponentMap,
  InputAddress,
  OutputAddress,
} from "./builder-types.js";
import type { Pipeline } from "./pipeline.js";
import type { TypedPipeline } from "./super-component-types.js";

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
export class PipelineBuilder<TMap extends ComponentMap> {
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
  ): PipelineBuilder<TMap & { [K in N]: C }> {
    this.#pipeline.addComponent(name, component);
    return this as unknown as PipelineBuilder<TMap & { [K in N]: C }>;
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
  ): this {
    this.#pipeline.connect(sender, receiver);
    return this;
  }

  /** The assembled pipeline; its type remembers the components, so a `SuperComponent` wrapping it keeps their socket types. */
  build(): TypedPipeline<TMap> {
    return this.#pipeline as TypedPipeline<TMap>;
  }
}
