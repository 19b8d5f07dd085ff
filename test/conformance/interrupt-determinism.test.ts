import {
  type AnyComponent,
  InMemoryTracer,
  MemoryLogger,
  type Pipeline,
  type PipelineOutputs,
  RunInterruptedError,
  type RunSnapshot,
} from "@junction/core";
import { describe, expect, it } from "vitest";
import { buildContext, componentCalls, type RunResult, runScenario, type Scenario } from "./harness.js";
import { feedbackLoopScenarios } from "./scenarios-feedback-loops.js";
import { loopScenarios } from "./scenarios-loops.js";

/**
 * Interrupts at every wave position: for every (component, visit) of each ported scenario with loops,
 * that component interrupts on that visit; the run is resumed (its snapshot through JSON) and must give
 * exactly the outputs and per-visit inputs of the uninterrupted run, at concurrency 1 and unbounded.
 */

const internals = Symbol.for("junction.component.internals");

interface Invoker {
  invoke(
    inputs: Record<string, unknown>,
    context: { resume: unknown; interrupt(options?: unknown): never },
  ): Promise<unknown>;
}

/** Makes `instance` interrupt on its `visit`-th run (counting runs of this pipeline run only). */
function interruptOn(instance: AnyComponent, visit: number): void {
  const slots = (instance as unknown as Record<symbol, Invoker>)[internals]!;
  const original = slots.invoke.bind(slots);
  let calls = 0;
  let done = false;
  slots.invoke = (inputs, context) => {
    calls += 1;
    if (!done && calls === visit && context.resume === undefined) {
      done = true;
      context.interrupt({ payload: { visit } });
    }
    return original(inputs, context);
  };
}

async function runWithResumes(
  pipeline: Pipeline,
  run: Scenario["runs"][number],
  concurrency: number | undefined,
): Promise<{ outputs: PipelineOutputs; pauses: number }> {
  const options = {
    concurrency,
    ...(run.includeOutputsFrom === undefined ? {} : { includeOutputsFrom: run.includeOutputsFrom }),
  };
  let pauses = 0;
  let attempt: () => Promise<PipelineOutputs> = () => pipeline.run(run.inputs, options);
  for (;;) {
    try {
      return { outputs: await attempt(), pauses };
    } catch (error) {
      if (!(error instanceof RunInterruptedError)) throw error;
      pauses += 1;
      const snapshot = JSON.parse(JSON.stringify(error.snapshot)) as RunSnapshot;
      const decisions = Object.fromEntries(
        error.interrupts.map((item) => [item.id, { action: "respond" as const, value: "go" }]),
      );
      attempt = () => pipeline.resume(snapshot, decisions, { concurrency });
    }
  }
}

const scenarios = [...loopScenarios, ...feedbackLoopScenarios];

describe.each([
  ["concurrency 1", 1],
  ["unbounded", undefined],
] as const)("interrupt at every wave position (%s)", (_label, concurrency) => {
  for (const scenario of scenarios) {
    it(scenario.name, async () => {
      const baseline = (await runScenario(scenario, concurrency)).results;
      const positions = Object.keys(baseline[0]!.calls);
      expect(positions.length).toBeGreaterThan(0);
      for (const position of positions) {
        const [name, visit] = position.split("#") as [string, string];
        const tracer = new InMemoryTracer();
        const logger = new MemoryLogger();
        const pipeline = scenario.build(buildContext(tracer, logger));
        interruptOn(pipeline.getComponent(name), Number(visit));
        const results: RunResult[] = [];
        let pauses = 0;
        for (const run of scenario.runs) {
          tracer.spans.length = 0;
          const outcome = await runWithResumes(pipeline, run, concurrency);
          pauses += outcome.pauses;
          results.push({ outputs: outcome.outputs, ...componentCalls(tracer) });
        }
        expect(pauses, position).toBe(1);
        results.forEach((result, index) => {
          expect(result.outputs, `${position}: outputs of run ${index + 1}`).toEqual(
            baseline[index]!.outputs,
          );
          expect(result.calls, `${position}: inputs of run ${index + 1}`).toEqual(baseline[index]!.calls);
        });
      }
    }, 120_000);
  }
});
