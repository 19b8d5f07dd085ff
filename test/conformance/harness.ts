import { InMemoryTracer, MemoryLogger, Pipeline, type PipelineOutputs, type Tracer } from "@junction/core";
import { expect } from "vitest";

/**
 * The conformance harness: scenarios ported from the reference's
 * `test/core/pipeline/features/pipeline_run.feature` / `test_run.py`, and how they are run.
 */

/** Inputs in nested form: `{ component: { socket: value } }`. */
export type NestedInputs = Record<string, Record<string, unknown>>;
/** Run inputs: nested, or flat (`{ socket: value }`, given to every component with such an open socket). */
export type RunInputs = NestedInputs | Record<string, unknown>;

/** What a scenario's `build` receives. */
export interface BuildContext {
  /** A new pipeline wired to the run's tracer and logger (default `maxRunsPerComponent`: 100, as the reference). */
  pipeline(maxRunsPerComponent?: number): Pipeline;
}

/** The expected inputs of one component run, keyed `"<component>#<visit>"` (visit is 1-based). */
export type ComponentCalls = Record<string, Record<string, unknown>>;

/** One `run` call of a scenario and what it must produce. */
export interface ScenarioRun {
  inputs: RunInputs;
  includeOutputsFrom?: readonly string[];
  /** Default `{}`. */
  expectedOutputs?: Record<string, Record<string, unknown>>;
  /** Default `{}`. */
  expectedComponentCalls?: ComponentCalls;
}

/** A "Running a correct Pipeline" row. */
export interface Scenario {
  /** The reference's row text, after "a pipeline ". */
  name: string;
  build(context: BuildContext): Pipeline;
  /** Runs in order on the same pipeline (state carries over, as in the reference). */
  runs: ScenarioRun[];
  /** Set only where Junction deliberately differs from the reference; says why. */
  differs?: string;
  /** Notes on how the port differs from the reference's test code (not its behaviour). */
  portNotes?: string;
}

/** A "Running a bad Pipeline" row. */
export interface FailingScenario {
  name: string;
  build(context: BuildContext): Pipeline;
  inputs: RunInputs;
  /** The error class the run must reject with (exactly this class, as the reference compares class names). */
  error: abstract new (
    ...args: any[]
  ) => Error;
  /** The component the error must name (`componentName`), when it is about one component. */
  componentName?: string;
}

/** The outputs and per-(component, visit) inputs of one run. */
export interface RunResult {
  outputs: PipelineOutputs;
  calls: ComponentCalls;
  /** Call keys in span start order. */
  order: string[];
}

/** Builds the context scenarios build their pipelines with. */
export function buildContext(tracer: Tracer, logger: MemoryLogger): BuildContext {
  return {
    pipeline: (maxRunsPerComponent = 100) => new Pipeline({ maxRunsPerComponent, tracer, logger }),
  };
}

/** Reads the component-run spans of a tracer into `"<name>#<visit>" → inputs`. */
export function componentCalls(tracer: InMemoryTracer): { calls: ComponentCalls; order: string[] } {
  const calls: ComponentCalls = {};
  const order: string[] = [];
  for (const span of tracer.find("junction.component.run")) {
    const key = `${String(span.tags["junction.component.name"])}#${String(span.tags["junction.component.visit"])}`;
    calls[key] = span.tags["junction.component.input"] as Record<string, unknown>;
    order.push(key);
  }
  return { calls, order };
}

/** Runs every run of a scenario on one fresh pipeline and returns the results. */
export async function runScenario(
  scenario: Scenario,
  concurrency: number | undefined,
): Promise<{ results: RunResult[]; logger: MemoryLogger }> {
  const tracer = new InMemoryTracer();
  const logger = new MemoryLogger();
  const pipeline = scenario.build(buildContext(tracer, logger));
  const results: RunResult[] = [];
  for (const run of scenario.runs) {
    tracer.spans.length = 0;
    const options =
      run.includeOutputsFrom === undefined
        ? { concurrency }
        : { concurrency, includeOutputsFrom: run.includeOutputsFrom };
    const outputs = await pipeline.run(run.inputs, options);
    results.push({ outputs, ...componentCalls(tracer) });
  }
  return { results, logger };
}

/** Asserts one run's outputs and component calls against the scenario's expectations. */
export function expectRun(result: RunResult, run: ScenarioRun): void {
  const expectedCalls = run.expectedComponentCalls ?? {};
  expect(Object.keys(result.calls).sort()).toEqual(Object.keys(expectedCalls).sort());
  expect(result.calls).toEqual(expectedCalls);
  expect(result.outputs).toEqual(run.expectedOutputs ?? {});
}

/** JSON with object keys sorted, so that equal values give equal strings whatever their key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item !== null && typeof item === "object" && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([left], [right]) => left.localeCompare(right)))
      : item,
  );
}

/** Matches an array with the same elements in any order (the reference's `AnyOrder`). */
export function anyOrder(items: readonly unknown[]): unknown {
  const key = (values: readonly unknown[]) => JSON.stringify(values.map(canonical).sort());
  return {
    asymmetricMatch: (actual: unknown) => Array.isArray(actual) && key(actual) === key(items),
    toString: () => "AnyOrder",
    toAsymmetricMatcher: () => `AnyOrder<${JSON.stringify(items)}>`,
  };
}
