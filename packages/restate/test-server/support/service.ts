/**
 * The service process of the Restate tests (a separate process, so tests can SIGKILL it): serves the
 * workflows of scenarios.ts on the loopback port in JUNCTION_SERVICE_PORT.
 *
 * Environment: JUNCTION_SERVICE_PORT, JUNCTION_EXEC_LOG (file), JUNCTION_SLOW_MS (the slow tool's
 * delay), JUNCTION_VARIANT ("changed": the Tips agent gets one more tool, so its fingerprint changes).
 */
import { MemoryLogger, noopTracer } from "@junction/core";
import { junctionChatThread, junctionWorkflow, serveJunction } from "@junction/restate";
import { buildContext } from "../../../../test/conformance/harness.js";
import { conformance, refundAgent, refundPipeline, threadAgent, tipsAgent } from "./scenarios.js";

const services = [
  junctionWorkflow({ name: "Tips", target: tipsAgent(process.env.JUNCTION_VARIANT) }),
  junctionWorkflow({ name: "Refunds", target: refundAgent() }),
  junctionWorkflow({ name: "RefundPipeline", target: refundPipeline() }),
];
for (const { prefix, scenario } of conformance) {
  const pipeline = scenario.build(buildContext(noopTracer, new MemoryLogger()));
  scenario.runs.forEach((run, index) => {
    const runOptions =
      run.includeOutputsFrom === undefined ? {} : { includeOutputsFrom: run.includeOutputsFrom };
    services.push(junctionWorkflow({ name: `${prefix}run${index}`, target: pipeline, runOptions }));
  });
}

const thread = junctionChatThread({ name: "Thread", agent: threadAgent() });
const endpoint = await serveJunction({
  services: [...services, thread],
  port: Number(process.env.JUNCTION_SERVICE_PORT ?? "0"),
});
process.stdout.write(`listening ${endpoint.port}\n`);
