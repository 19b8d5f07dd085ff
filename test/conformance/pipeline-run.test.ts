import { InMemoryTracer, MemoryLogger } from "@junction/core";
import { afterEach, describe, expect, it } from "vitest";
import { seededDelays, setRunDelay } from "./components/define.js";
import { buildContext, expectRun, runScenario, type Scenario } from "./harness.js";
import { agentScenarios } from "./scenarios-agents.js";
import { basicScenarios } from "./scenarios-basic.js";
import { branchScenarios } from "./scenarios-branches.js";
import { conversionScenarios } from "./scenarios-conversion.js";
import { failingScenarios } from "./scenarios-failing.js";
import { feedbackLoopScenarios } from "./scenarios-feedback-loops.js";
import { fileScenarios } from "./scenarios-files.js";
import { loopScenarios } from "./scenarios-loops.js";
import { ragScenarios } from "./scenarios-rag.js";
import { routingScenarios } from "./scenarios-routing.js";

/**
 * The reference's `pipeline_run.feature`, "Running a correct Pipeline" and "Running a bad Pipeline":
 * every scenario runs at `concurrency: 1` and unbounded, and once more unbounded with components that
 * finish in a shuffled order. Outputs and per-(component, visit) inputs must match the reference, and
 * the three modes must agree exactly on outputs and per-visit inputs (Junction's determinism promise,
 * including variadic value order); only the order in which components start may differ.
 */

const scenarios: Scenario[] = [
  ...basicScenarios,
  ...branchScenarios,
  ...routingScenarios,
  ...loopScenarios,
  ...feedbackLoopScenarios,
  ...ragScenarios,
  ...agentScenarios,
  ...fileScenarios,
  ...conversionScenarios,
];

const modes = [
  { label: "concurrency 1", concurrency: 1, shuffled: false },
  { label: "unbounded", concurrency: undefined, shuffled: false },
  { label: "unbounded, shuffled finish order", concurrency: undefined, shuffled: true },
] as const;

afterEach(() => setRunDelay(undefined));

for (const scenario of scenarios) {
  describe(`a pipeline ${scenario.name}`, () => {
    const check = scenario.differs === undefined ? it : it.fails;
    for (const mode of modes) {
      check(`runs as the reference (${mode.label})`, async () => {
        if (mode.shuffled) setRunDelay(seededDelays(scenario.name.length, 3));
        const { results } = await runScenario(scenario, mode.concurrency);
        scenario.runs.forEach((run, index) => {
          expectRun(results[index]!, run);
        });
      });
    }

    it("produces the same outputs, inputs and call order at every concurrency", async () => {
      const sequential = await runScenario(scenario, 1);
      const unbounded = await runScenario(scenario, undefined);
      setRunDelay(seededDelays(scenario.name.length + 1, 3));
      const shuffled = await runScenario(scenario, undefined);
      // Start order is not compared: a component whose inputs are certain may start before its wave
      // (an early start), so starts interleave differently; what each run received and produced may not.
      expect(unbounded.results.map(({ outputs, calls }) => ({ outputs, calls }))).toEqual(
        sequential.results.map(({ outputs, calls }) => ({ outputs, calls })),
      );
      expect(shuffled.results.map(({ outputs, calls }) => ({ outputs, calls }))).toEqual(
        sequential.results.map(({ outputs, calls }) => ({ outputs, calls })),
      );
    });
  });
}

for (const scenario of failingScenarios) {
  describe(`a bad pipeline ${scenario.name}`, () => {
    for (const mode of modes) {
      it(`rejects with ${scenario.error.name} (${mode.label})`, async () => {
        if (mode.shuffled) setRunDelay(seededDelays(scenario.name.length, 3));
        const tracer = new InMemoryTracer();
        const pipeline = scenario.build(buildContext(tracer, new MemoryLogger()));
        const error = await pipeline.run(scenario.inputs, { concurrency: mode.concurrency }).then(
          () => undefined,
          (rejection: unknown) => rejection,
        );
        expect(error).toBeInstanceOf(scenario.error);
        expect((error as Error).constructor).toBe(scenario.error);
        if (scenario.componentName !== undefined) {
          expect(error).toMatchObject({ componentName: scenario.componentName });
        }
      });
    }
  });
}
