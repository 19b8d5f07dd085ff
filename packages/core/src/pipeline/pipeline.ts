import { MultiDirectedGraph } from "graphology";
import type { AnyComponent } from "../component/contract.js";
import { getComponentInternals, isComponent } from "../component/internals.js";
import { componentFingerprint } from "../durable/fingerprint.js";
import type { RunRoot } from "../durable/run-recorder.js";
import { formatIssues, PipelineValidationError } from "../errors/errors.js";
import { excerpt } from "../errors/excerpt.js";
import { hashJSON } from "../json/canonical-json.js";
import { getDefaultLogger, type Logger } from "../logger.js";
import type { PipelineEvent, PipelineOutputs } from "../run/events.js";
import type { Decisions } from "../run/interrupt.js";
import type { RunSnapshot } from "../run/run-snapshot.js";
import type { PipelineDocument } from "../serialization/document-schema.js";
import { dataToYAML, parseYAMLData } from "../serialization/yaml.js";
import { isReservedName, reservedNameMessage } from "../sockets/reserved-names.js";
import { noopTracer, type Tracer } from "../tracing.js";
import { PipelineBuilder } from "./builder.js";
import { connectSockets, disconnectNode, listNames } from "./connect.js";
import { checkDeclaredIO, type DeclaredIO, freezeDeclaredIO } from "./declared-io.js";
import {
  describeInputs,
  describeOutputs,
  type PipelineConnection,
  type PipelineInputDescription,
  type PipelineOutputDescription,
} from "./describe-io.js";
import { pipelineToMermaid } from "./mermaid.js";
import { createEngineNode, type EngineEdge, type EngineNode } from "./model.js";
import type { PipelineOptions, PipelineResumeOptions, PipelineRunOptions } from "./options.js";
import {
  type PipelineDeserializeOptions,
  type PipelineSerializeOptions,
  pipelineFromDocument,
  pipelineToDocument,
} from "./pipeline-document.js";
import { compilePlan, type Plan } from "./plan.js";
import { type PreparedInputs, prepareRunInputs } from "./run-inputs.js";
import { type ExecuteResult, execute } from "./scheduler.js";
import { streamRun } from "./stream.js";
import {
  type NestedPause,
  type NestedRunOptions,
  type Resumed,
  type RunHost,
  resumeTop,
  runNestedIn,
  topRun,
} from "./top-run.js";

const reservedComponentNames = new Set(["_debug"]);

let nestedExecutor:
  | ((
      pipeline: Pipeline,
      inputs: Record<string, unknown>,
      options: NestedRunOptions,
    ) => Promise<ExecuteResult & { readonly paused?: NestedPause | undefined }>)
  | undefined;

/**
 * Runs `pipeline` as part of an enclosing run (a `SuperComponent`): the same engine as `run`, with the
 * enclosing span as parent, the enclosing depth, and the events handed to `sink`. Internal to core.
 */
export function runNested(
  pipeline: Pipeline,
  inputs: Record<string, unknown>,
  options: NestedRunOptions,
): Promise<ExecuteResult & { readonly paused?: NestedPause | undefined }> {
  return nestedExecutor!(pipeline, inputs, options);
}

/**
 * A graph of components joined by typed sockets, and the engine that runs it.
 *
 * Scheduling follows the reference (Haystack): a component runs when its mandatory inputs are filled
 * and something triggered it; loops, routers and variadic sockets work as there. Unlike the reference,
 * independent components run concurrently, results never depend on `concurrency` or timing, and a run
 * reports which components never ran and why.
 *
 * @example
 * ```ts
 * const p = new Pipeline();
 * p.addComponent("adder", new AddFixedValue({ add: 2 })).addComponent("double", new Double());
 * p.connect("adder.result", "double.value");
 * const out = await p.run({ adder: { value: 1 } }); // { double: { value: 6 } }
 * ```
 */
export class Pipeline {
  readonly #nodes = new Map<string, EngineNode>();
  readonly #connections: EngineEdge[] = [];
  readonly #graph = new MultiDirectedGraph();
  readonly #metadata: Readonly<Record<string, unknown>>;
  readonly #maxRunsPerComponent: number;
  readonly #connectionTypeValidation: boolean;
  readonly #logger: Logger | undefined;
  readonly #tracer: Tracer | undefined;
  #plan: Plan | undefined;
  #runHost: RunHost | undefined;
  #declaredIO: DeclaredIO | undefined;

  static {
    nestedExecutor = (pipeline, inputs, options) => runNestedIn(pipeline.#host(), inputs, options);
  }

  /** @param options - max runs per component, metadata, type validation, logger, tracer */
  constructor(options: PipelineOptions = {}) {
    const maxRuns = options.maxRunsPerComponent ?? 100;
    if (!Number.isInteger(maxRuns) || maxRuns < 1) {
      throw new PipelineValidationError(
        `new Pipeline(...): maxRunsPerComponent must be a positive integer; got ${String(maxRuns)}.`,
      );
    }
    this.#maxRunsPerComponent = maxRuns;
    this.#metadata = options.metadata ?? {};
    this.#connectionTypeValidation = options.connectionTypeValidation ?? true;
    this.#logger = options.logger;
    this.#tracer = options.tracer;
  }

  /**
   * Starts a typed builder whose `connect` checks socket addresses and types at compile time.
   *
   * @param options - the options of the pipeline being built
   * @example
   * ```ts
   * const p = Pipeline.builder().add("a", new A()).add("b", new B()).connect("a.out", "b.in").build();
   * ```
   */
  static builder(options: PipelineOptions = {}): PipelineBuilder<{}> {
    return new PipelineBuilder(new Pipeline(options));
  }

  /** The pipeline's metadata. */
  get metadata(): Readonly<Record<string, unknown>> {
    return this.#metadata;
  }

  /** How often one component may run in one run. */
  get maxRunsPerComponent(): number {
    return this.#maxRunsPerComponent;
  }

  /** Whether `connect` checks socket types. */
  get connectionTypeValidation(): boolean {
    return this.#connectionTypeValidation;
  }

  /**
   * Adds a component under `name`. Adding the same instance under the same name again is a no-op.
   *
   * @param name - a unique name without dots (`"_debug"`, `"__proto__"`, `"constructor"` and `"prototype"` are reserved)
   * @param instance - a component instance; it may belong to one pipeline only
   * @returns this pipeline, for chaining
   */
  addComponent(name: string, instance: AnyComponent): this {
    const existing = this.#nodes.get(name);
    if (existing !== undefined) {
      if (existing.instance === instance) return this;
      throw new PipelineValidationError(
        `Pipeline.addComponent: a component named "${excerpt(name)}" already exists (${existing.instance.type}). Choose another name.`,
        { componentName: name },
      );
    }
    if (typeof name !== "string" || name.trim() === "") {
      throw new PipelineValidationError("Pipeline.addComponent: component names must be non-empty strings.");
    }
    if (isReservedName(name)) {
      throw new PipelineValidationError(
        `Pipeline.addComponent: ${reservedNameMessage(name, "a component name")}`,
        {
          componentName: name,
        },
      );
    }
    if (reservedComponentNames.has(name)) {
      throw new PipelineValidationError(
        `Pipeline.addComponent: "${excerpt(name)}" is a reserved name. Choose another name.`,
        {
          componentName: name,
        },
      );
    }
    if (name.includes(".")) {
      throw new PipelineValidationError(
        `Pipeline.addComponent: "${excerpt(name)}" is not a valid component name: it contains "." (dots separate component and socket in "component.socket"). Choose a name without dots.`,
        { componentName: name },
      );
    }
    if (!isComponent(instance)) {
      throw new PipelineValidationError(
        `Pipeline.addComponent: the value given for "${excerpt(name)}" is not a component. Create it with a class made by defineComponent.`,
        { componentName: name },
      );
    }
    const internals = getComponentInternals(instance);
    if (internals.owner !== undefined) {
      throw new PipelineValidationError(
        internals.owner.pipeline === this
          ? `Pipeline.addComponent: this ${instance.type} instance is already in the pipeline as "${excerpt(internals.owner.name)}"; an instance can be added once. Create another instance for "${excerpt(name)}".`
          : `Pipeline.addComponent: this ${instance.type} instance already belongs to another pipeline (as "${excerpt(internals.owner.name)}"). Components cannot be shared between pipelines; create a new instance for "${excerpt(name)}".`,
        { componentName: name, componentType: instance.type },
      );
    }
    internals.owner = { pipeline: this, name };
    this.#nodes.set(name, createEngineNode(name, instance));
    this.#graph.addNode(name);
    this.#plan = undefined;
    return this;
  }

  /**
   * Removes a component and its connections, and undoes auto-variadic promotions it caused.
   *
   * @param name - the component's name
   * @returns the removed instance, free to join another pipeline
   */
  removeComponent(name: string): AnyComponent {
    const node = this.#requireNode("removeComponent", name);
    disconnectNode(this.#nodes, node);
    for (let index = this.#connections.length - 1; index >= 0; index -= 1) {
      const edge = this.#connections[index]!;
      if (edge.sender === name || edge.receiver === name) this.#connections.splice(index, 1);
    }
    this.#nodes.delete(name);
    this.#graph.dropNode(name);
    getComponentInternals(node.instance).owner = undefined;
    this.#plan = undefined;
    return node.instance;
  }

  /** The component named `name`; throws `PipelineValidationError` when there is none. */
  getComponent(name: string): AnyComponent {
    return this.#requireNode("getComponent", name).instance;
  }

  /** The component names, in the order they were added. */
  componentNames(): string[] {
    return [...this.#nodes.keys()];
  }

  /**
   * Connects an output socket to an input socket. Either side may name only the component (`"a"`) when
   * exactly one socket pair fits: strict type matches beat matches that need a conversion, then pairs with
   * equal names win; anything else is an ambiguity error listing the candidates. A list-typed input
   * that gets a second sender becomes variadic (its incoming lists are concatenated). Connecting the
   * same pair twice is a no-op.
   *
   * @param sender - `"component.socket"` or `"component"`
   * @param receiver - `"component.socket"` or `"component"`
   * @returns this pipeline, for chaining
   */
  connect(sender: string, receiver: string): this {
    const edge = connectSockets(this.#nodes, sender, receiver, this.#connectionTypeValidation);
    if (edge !== undefined) {
      this.#connections.push(edge);
      this.#graph.addDirectedEdgeWithKey(
        `${edge.sender}.${edge.senderSocket}->${edge.receiver}.${edge.receiverSocket}`,
        edge.sender,
        edge.receiver,
      );
      this.#plan = undefined;
    }
    return this;
  }

  /** Every connection as fully qualified `"component.socket"` pairs, in connect order. */
  connections(): PipelineConnection[] {
    return this.#connections.map((edge) => ({
      sender: `${edge.sender}.${edge.senderSocket}`,
      receiver: `${edge.receiver}.${edge.receiverSocket}`,
    }));
  }

  /**
   * The inputs a run can give: for each component, its sockets that nothing is connected to (and its
   * variadic sockets, which take run input besides their senders).
   *
   * @param options - `includeConnected: true` lists every input socket
   */
  inputs(
    options: { includeConnected?: boolean } = {},
  ): Record<string, Record<string, PipelineInputDescription>> {
    return describeInputs(this.#nodes.values(), options.includeConnected ?? false);
  }

  /**
   * The outputs a run reports: for each component, its output sockets that nothing consumes.
   *
   * @param options - `includeConnected: true` lists every output socket
   */
  outputs(
    options: { includeConnected?: boolean } = {},
  ): Record<string, Record<string, PipelineOutputDescription>> {
    return describeOutputs(this.#nodes.values(), options.includeConnected ?? false);
  }

  /**
   * Declares friendly input and output names (what the document's top-level `inputs` / `outputs`
   * hold): callers that serve the pipeline (HTTP, MCP, the CLI) then take `{ name: value }` and answer
   * `{ name: value }` instead of the nested form. `run` itself is unchanged.
   *
   * Inputs must be open sockets, each used by one name; when inputs are declared every mandatory open
   * socket must be among them. Outputs may name any output socket (connected ones are collected with
   * `includeOutputsFrom`). Declare after adding and connecting the components.
   *
   * @param io - `inputs` and/or `outputs`: name → `"component.socket"` or a list of them; `{}` removes both
   * @returns this pipeline, for chaining
   * @throws PipelineValidationError listing every problem
   * @example
   * ```ts
   * p.declareIO({ inputs: { question: ["prompt.query", "retriever.query"] }, outputs: { answer: "llm.replies" } });
   * ```
   */
  declareIO(io: DeclaredIO): this {
    const issues = checkDeclaredIO(this, io);
    if (issues.length > 0) {
      throw new PipelineValidationError(
        `Pipeline.declareIO: the declared inputs/outputs do not fit the pipeline:\n${formatIssues(issues)}`,
        { issues },
      );
    }
    const frozen = freezeDeclaredIO(io);
    this.#declaredIO = frozen.inputs === undefined && frozen.outputs === undefined ? undefined : frozen;
    return this;
  }

  /** The declared inputs and outputs (see {@link Pipeline.declareIO}), or `undefined` when none are. */
  declaredIO(): DeclaredIO | undefined {
    return this.#declaredIO;
  }

  /**
   * Runs the pipeline.
   *
   * Inputs are nested (`{ component: { socket: value } }`) when every key names a component, flat
   * (`{ socket: value }`, given to every component with an unconnected socket of that name) when none
   * does; `inputsFormat` forces one. They are validated (every problem reported at once) and copied.
   *
   * @param inputs - the run inputs
   * @param options - `includeOutputsFrom`, `concurrency`, `signal`, `validate`, `inputsFormat`, `tracer`, `logger`
   * @returns `{ component: { socket: value } }` for outputs nothing consumed (and every output of
   *   `includeOutputsFrom` components)
   * @throws PipelineValidationError for invalid inputs; PipelineRuntimeError when a component fails;
   *   PipelineMaxComponentRuns; PipelineComponentsBlockedError; the signal's reason when aborted
   */
  async run(inputs: Record<string, unknown>, options: PipelineRunOptions = {}): Promise<PipelineOutputs> {
    const result = await topRun(this.#host(), inputs, options, undefined);
    options.onNeverRan?.(result.neverRan);
    return result.outputs;
  }

  /**
   * Runs the pipeline and yields what happens: `component_start`, `chunk` (whatever components pass to
   * `context.emit`), `component_end`, and finally `run_end` with the outputs and the components that
   * never ran. Leaving the loop early cancels the run.
   *
   * @param inputs - the run inputs, as for {@link Pipeline.run}
   * @param options - as for {@link Pipeline.run}
   */
  stream(inputs: Record<string, unknown>, options: PipelineRunOptions = {}): AsyncIterable<PipelineEvent> {
    return {
      [Symbol.asyncIterator]: () =>
        streamRun(options, (runOptions, sink) => topRun(this.#host(), inputs, runOptions, sink)),
    };
  }

  /**
   * Continues an interrupted run like {@link Pipeline.resume} and yields its events like
   * {@link Pipeline.stream}: the resumed components' `component_start` / `chunk` / `component_end`, then
   * `run_end` (or `interrupt` and `run_end` with status `"interrupted"` when it pauses again). A refused
   * resume (a missing decision, a changed definition, a run someone else resumed) rejects the first
   * `next()` and nothing runs. Leaving the loop early cancels the run.
   *
   * @param runIdOrSnapshot - the run id (with `{ store }`) or the snapshot
   * @param decisions - `{ [interruptId]: decision }`
   * @param options - as for {@link Pipeline.resume}
   * @example
   * ```ts
   * for await (const event of pipeline.resumeStream("order-42", { "agent#1/s2/call_9": { action: "approve" } }, { store })) {
   *   if (event.type === "chunk") console.log(event.payload);
   * }
   * ```
   */
  resumeStream(
    runIdOrSnapshot: string | RunSnapshot,
    decisions: Decisions,
    options: PipelineResumeOptions = {},
  ): AsyncIterable<PipelineEvent> {
    return {
      [Symbol.asyncIterator]: () =>
        streamRun(options, (runOptions, sink) =>
          resumeTop(this.#host(), runIdOrSnapshot, decisions, runOptions as PipelineResumeOptions, sink),
        ),
    };
  }

  /**
   * Continues a run that stopped at interrupts (`RunInterruptedError`), given a decision for every
   * pending interrupt. The paused wave finishes first — members that had finished commit their saved
   * outputs, members that interrupted run again with `context.resume` (an Agent continues mid-step) —
   * then the run goes on; its outputs equal those of the same run with the decisions known up front.
   * Fails closed (nothing runs) on a missing or unknown decision, changed arguments, a changed pipeline,
   * or a run another resumer claimed. It may interrupt again.
   *
   * @param runIdOrSnapshot - the run id (with `{ store }`) or the snapshot (`error.snapshot`)
   * @param decisions - `{ [interruptId]: decision }`
   * @param options - `store`, `allowDefinitionChange`, and the run options
   * @example
   * ```ts
   * const out = await pipeline.resume("order-42", { "agent#1/s2/call_9": { action: "approve" } }, { store });
   * ```
   */
  async resume(
    runIdOrSnapshot: string | RunSnapshot,
    decisions: Decisions,
    options: PipelineResumeOptions = {},
  ): Promise<PipelineOutputs> {
    return (await resumeTop(this.#host(), runIdOrSnapshot, decisions, options, undefined)).outputs;
  }

  #root(): RunRoot {
    const components: Record<string, string> = {};
    for (const [name, node] of this.#nodes) components[name] = componentFingerprint(node.instance);
    return {
      kind: "pipeline",
      type: "Pipeline",
      fingerprint: hashJSON({
        components,
        connections: this.connections(),
        maxRunsPerComponent: this.#maxRunsPerComponent,
      }),
    };
  }

  #execute(
    inputs: Record<string, unknown>,
    options: PipelineRunOptions,
    sink: ((event: PipelineEvent) => void) | undefined,
    depth: number,
    resumed?: Resumed,
    trustedInputs = false,
    preparedInputs?: PreparedInputs,
  ): Promise<ExecuteResult> {
    try {
      const concurrency = options.concurrency ?? Number.POSITIVE_INFINITY;
      if (
        !(concurrency === Number.POSITIVE_INFINITY || (Number.isInteger(concurrency) && concurrency >= 1))
      ) {
        throw new PipelineValidationError(
          `Pipeline.run: concurrency must be a positive integer (or Infinity); got ${String(concurrency)}.`,
        );
      }
      const includeOutputsFrom =
        resumed?.restore.includeOutputsFrom ?? new Set(options.includeOutputsFrom ?? []);
      const unknown = [...includeOutputsFrom].filter((name) => !this.#nodes.has(name));
      if (unknown.length > 0) {
        throw new PipelineValidationError(
          `Pipeline.run: includeOutputsFrom names components that are not in the pipeline: ${listNames(unknown)}. Components: ${listNames(this.componentNames())}.`,
          {
            issues: unknown.map((name) => ({
              path: ["includeOutputsFrom", name],
              message: "unknown component",
            })),
          },
        );
      }
      const plan = this.#compiled();
      const prepared =
        resumed === undefined
          ? (preparedInputs ?? prepareRunInputs(plan, inputs, options.inputsFormat, trustedInputs))
          : {
              values: new Map(),
              promoted: new Set<never>(),
              nested: inputs as Record<string, Record<string, unknown>>,
            };
      return execute({
        plan,
        inputs: prepared,
        includeOutputsFrom,
        concurrency,
        signal: options.signal,
        validateOutputs: options.validate === "all",
        maxRunsPerComponent: this.#maxRunsPerComponent,
        metadata: this.#metadata,
        tracer: options.tracer ?? this.#tracer ?? noopTracer,
        logger: options.logger ?? this.#logger ?? getDefaultLogger(),
        sink,
        parentSpan: options.span,
        depth,
        durable: options.durable,
        restore: resumed?.restore,
        resumeFor: resumed?.resumeFor,
      });
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * Writes the pipeline as a version-1 document: settings, every component as `{ type, init_parameters }`
   * and every connection fully qualified. Secrets are written as env-var references; a token secret,
   * an unregistered function or any other non-JSON param is refused with a `SerializationError`.
   *
   * @param options - `registry` where function names are looked up (default: the default registry)
   * @example
   * ```ts
   * const doc = pipeline.toJSON();
   * const copy = Pipeline.fromJSON(JSON.parse(JSON.stringify(doc)));
   * ```
   */
  toJSON(options?: PipelineSerializeOptions): PipelineDocument {
    // JSON.stringify(pipeline) calls toJSON(key) with a string.
    return pipelineToDocument(this, typeof options === "object" && options !== null ? options : {});
  }

  /**
   * Loads a pipeline document. Types and functions are resolved only through the registry; every problem
   * (shape, version, unknown types, invalid params, impossible connections) is reported at once.
   *
   * @param doc - the document (untrusted input is fine)
   * @param options - `registry` (default: the default registry, which knows every imported built-in)
   * @throws DeserializationError whose `issues` list every problem with its path
   */
  static fromJSON(doc: unknown, options: PipelineDeserializeOptions = {}): Pipeline {
    return pipelineFromDocument(doc, (settings) => new Pipeline(settings), options);
  }

  /** Writes the document of {@link Pipeline.toJSON} as YAML (plain data, no tags or anchors). */
  toYAML(options: PipelineSerializeOptions = {}): string {
    return dataToYAML(pipelineToDocument(this, options, "Pipeline.toYAML"));
  }

  /**
   * Loads a pipeline from YAML: the core schema only, every tag refused, aliases capped, then the same
   * checks as {@link Pipeline.fromJSON}.
   *
   * @param text - the YAML source
   * @param options - `registry` (default: the default registry)
   * @throws DeserializationError whose `issues` list every problem
   */
  static fromYAML(text: string, options: PipelineDeserializeOptions = {}): Pipeline {
    const data = parseYAMLData(text, "Pipeline.fromYAML");
    return pipelineFromDocument(data, (settings) => new Pipeline(settings), options, "Pipeline.fromYAML");
  }

  /** Mermaid flowchart text of the pipeline (deterministic, drawn offline). */
  toMermaid(): string {
    return pipelineToMermaid(this);
  }

  /** What the top-level run functions (`top-run.ts`) need from this pipeline; made once. */
  #host(): RunHost {
    this.#runHost ??= {
      plan: () => this.#compiled(),
      root: () => this.#root(),
      maxRunsPerComponent: this.#maxRunsPerComponent,
      execute: (inputs, options, sink, depth, resumed, trusted, prepared) =>
        this.#execute(inputs, options, sink, depth, resumed, trusted, prepared),
    };
    return this.#runHost;
  }

  #compiled(): Plan {
    this.#plan ??= compilePlan(this.#nodes, this.#connections, (name) => this.#graph.outNeighbors(name));
    return this.#plan;
  }

  #requireNode(method: string, name: string): EngineNode {
    const node = this.#nodes.get(name);
    if (node === undefined) {
      throw new PipelineValidationError(
        `Pipeline.${method}: there is no component named "${excerpt(name)}". Components: ${listNames(this.componentNames())}.`,
        { componentName: name },
      );
    }
    return node;
  }
}
