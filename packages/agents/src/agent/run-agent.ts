import { ComponentInterrupt, JunctionError, type RunContext } from "@junction/core";
import { errorType } from "@junction/llm";
import type { AgentParams, AgentSetup } from "./agent-config.js";
import { type AgentResume, AgentRun } from "./agent-loop.js";
import { readAgentSnapshot } from "./agent-snapshot.js";
import { type ConversationTurn, openTurn, resumeTurn } from "./conversation.js";
import { toRunError } from "./exits.js";
import { type AgentRunOutputs, runOutputs } from "./run-outputs.js";
import { type PreparedRun, prepareRun } from "./run-setup.js";

/**
 * Runs the agent loop: prepare the State, then step until an exit condition, a hook's stop reason or
 * `maxAgentSteps`. Failures and aborts become an {@link AgentRunError} carrying the conversation so far.
 */
export async function runAgent(
  inputs: Record<string, unknown>,
  context: RunContext<AgentParams, AgentSetup>,
): Promise<AgentRunOutputs> {
  const { params, resources: setup } = context;
  const runSpan = context.tracer.startSpan(
    "junction.agent.run",
    {
      "junction.agent.max_steps": params.maxAgentSteps,
      "junction.agent.exit_conditions": params.exitConditions,
    },
    context.span,
  );
  let run: AgentRun | undefined;
  let prepared: PreparedRun;
  let turn: ConversationTurn | undefined;
  try {
    // Input problems (an unknown tool name, ...) are reported as they are: there is no conversation yet.
    context.signal?.throwIfAborted();
    let runInputs = inputs;
    // A fresh turn loads the stored history; a resumed one already holds it in its State.
    if (context.resume?.state === undefined)
      ({ inputs: runInputs, turn } = await openTurn(params, inputs, context.signal));
    prepared = await prepareRun(runInputs, context);
  } catch (error) {
    turn?.release();
    runSpan.setTag("error", true);
    runSpan.setTag("error.type", errorType(error));
    runSpan.end();
    throw context.signal?.aborted ? toRunError(error, undefined, context.signal) : error;
  }
  try {
    let resume: AgentResume | undefined;
    if (context.resume?.state !== undefined) {
      const restored = readAgentSnapshot(context.resume.state, setup.stateSchema);
      prepared = { ...prepared, state: restored.state };
      resume = { snapshot: restored.snapshot, decisions: context.resume.decisions };
      turn = await resumeTurn(params, restored.snapshot.conversation, context.signal);
    }
    run = new AgentRun(params, setup, context, prepared);
    run.runSpan = runSpan;
    run.conversation = turn;
    runSpan.setTag("junction.agent.tools", prepared.initialToolNames);
    const exitReason = await run.loop(resume);
    runSpan.setTag("junction.agent.steps_taken", run.stepCount);
    runSpan.setTag("junction.agent.exit_reason", exitReason);
    const outputs = runOutputs(run.state, setup, run.answers !== undefined, exitReason);
    // Only a completed run is stored; an error or an interrupt leaves the conversation as it was.
    await turn?.commit(run.state);
    return outputs;
  } catch (error) {
    // An interrupt is not a failure; a refused resume and an unreadable snapshot are reported as they are.
    if (ComponentInterrupt.isInstance(error)) throw error;
    runSpan.setTag("error", true);
    runSpan.setTag("error.type", errorType(error));
    if (JunctionError.isInstance(error) && isResumeProblem(error.code)) throw error;
    throw toRunError(error, run, context.signal);
  } finally {
    turn?.release();
    runSpan.end();
  }
}

function isResumeProblem(code: string): boolean {
  // A conversation turn refused because another was stored first is reported as it is, too.
  return code.startsWith("RESUME_") || code === "DESERIALIZATION_ERROR" || code === "CONVERSATION_CONFLICT";
}
