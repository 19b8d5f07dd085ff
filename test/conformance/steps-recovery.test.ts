import {
  InMemoryTracer,
  MemoryLogger,
  MemoryRunStore,
  type PipelineOutputs,
  PipelineValidationError,
} from "@junction/core";
import { describe, expect, it } from "vitest";
import { DyingStore } from "../../packages/core/test/support/dying-store.js";
import "./components/durable-types.js";
import { buildContext, runScenario, type Scenario } from "./harness.js";
import { agentScenarios } from "./scenarios-agents.js";
import { basicScenarios } from "./scenarios-basic.js";
import { branchScenarios } from "./scenarios-branches.js";
import { conversionScenarios } from "./scenarios-conversion.js";
import { feedbackLoopScenarios } from "./scenarios-feedback-loops.js";
import { fileScenarios } from "./scenarios-files.js";
import { loopScenarios } from "./scenarios-loops.js";
import { ragScenarios } from "./scenarios-rag.js";
import { routingScenarios } from "./scenarios-routing.js";

/**
 * Crash recovery at every step (durability "steps"): for every run of each ported scenario,
 * the run's process "dies" while writing its k-th step, for every k; another run takes it over from the
 * store (finished steps replayed, the step in flight run again) and must give exactly the outputs of the
 * run that never crashed, at concurrency 1 and unbounded.
 */

/**
 * Components that answer from state they keep in the process (a running total, the index of the next
 * canned reply) cannot be replayed: after a crash the new process starts them from zero, and the steps
 * replayed from the journal do not run them. That is the rule for every durable run (Restate too):
 * a component's result must follow from its inputs, or its state must live outside the process. The
 * scenarios using these test components are left out.
 */
const stateful = new Set([
  "conformance.Accumulate",
  "conformance.FixedGenerator",
  "conformance.loops.FakeOutputValidator",
  "conformance.loops.GuessingGenerator",
  "conformance.loops.NoAnswerThenAnswerGenerator",
  "conformance.agents.FakeThoughtActionOpenAIChatGenerator",
  "conformance.files.FakeDataExtractor",
]);

const scenarios: Scenario[] = [
  ...basicScenarios,
  ...branchScenarios,
  ...conversionScenarios,
  ...routingScenarios,
  ...ragScenarios,
  ...fileScenarios,
  ...loopScenarios,
  ...feedbackLoopScenarios,
  ...agentScenarios,
].filter((scenario) => {
  const pipeline = scenario.build(buildContext(new InMemoryTracer(), new MemoryLogger()));
  const names = pipeline.componentNames();
  // A pipeline without components has no step to crash in.
  return names.length > 0 && !names.some((name) => stateful.has(pipeline.getComponent(name).type));
});

function optionsOf(run: Scenario["runs"][number], concurrency: number | undefined) {
  return run.includeOutputsFrom === undefined
    ? { concurrency }
    : { concurrency, includeOutputsFrom: run.includeOutputsFrom };
}

describe.each([
  ["concurrency 1", 1],
  ["unbounded", undefined],
] as const)('crash at every step and take over (durability "steps", %s)', (_label, concurrency) => {
  it("covers every ported scenario whose components keep no state", () => {
    expect(scenarios.length).toBeGreaterThanOrEqual(30);
  });
  for (const scenario of scenarios) {
    it(scenario.name, async () => {
      const baseline = (await runScenario(scenario, concurrency)).results;
      let takeovers = 0;
      let refused = 0;
      for (const [index, run] of scenario.runs.entries()) {
        // How many steps the run journals when nothing crashes (and that journaling changes nothing).
        const counted = scenario.build(buildContext(new InMemoryTracer(), new MemoryLogger()));
        for (const earlier of scenario.runs.slice(0, index))
          await counted.run(earlier.inputs, optionsOf(earlier, concurrency));
        const store = new MemoryRunStore();
        let journaled: PipelineOutputs;
        try {
          journaled = await counted.run(run.inputs, {
            ...optionsOf(run, concurrency),
            store,
            runId: "count",
            durability: "steps",
          });
        } catch (error) {
          // Inputs that are class instances without a JSON form (a DataFrame, a ByteStream) cannot be
          // kept for another process: the mode refuses them before anything runs.
          expect(error).toBeInstanceOf(PipelineValidationError);
          expect((error as Error).message).toMatch(/some inputs have no JSON form/);
          refused += 1;
          continue;
        }
        expect(journaled).toEqual(baseline[index]!.outputs);
        const steps = (await store.deltas("count", 1)).length;

        for (let step = 1; step <= steps; step++) {
          const pipeline = scenario.build(buildContext(new InMemoryTracer(), new MemoryLogger()));
          for (const earlier of scenario.runs.slice(0, index))
            await pipeline.run(earlier.inputs, optionsOf(earlier, concurrency));
          const dying = new DyingStore(step, { foreignProcess: true });
          void pipeline.run(run.inputs, {
            ...optionsOf(run, concurrency),
            store: dying,
            runId: "crash",
            durability: "steps",
          });
          await expect.poll(() => dying.dead).toBe(true);
          // Another process: the same definition, built fresh (state kept in components is gone).
          const taker = scenario.build(buildContext(new InMemoryTracer(), new MemoryLogger()));
          for (const earlier of scenario.runs.slice(0, index))
            await taker.run(earlier.inputs, optionsOf(earlier, concurrency));
          const outputs: PipelineOutputs = await taker.resume(
            "crash",
            {},
            { concurrency, store: dying.inner },
          );
          expect(outputs, `run ${index + 1}, crash at step ${step} of ${steps}`).toEqual(
            baseline[index]!.outputs,
          );
          expect((await dying.inner.load("crash"))?.status).toBe("completed");
          takeovers += 1;
        }
      }
      // Every run either recovered from a crash at each of its steps, or was refused up front.
      expect(takeovers + refused).toBeGreaterThanOrEqual(scenario.runs.length);
    }, 120_000);
  }
});
