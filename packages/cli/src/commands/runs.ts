import { readFileSync } from "node:fs";
import { FileRunStore, type Interrupt } from "@junction/core";
import {
  describeRun,
  type InterruptedAnswer,
  listRuns,
  preparePipeline,
  type ResumedAnswer,
  readDecisions,
  resumeServed,
} from "@junction/serve";
import { CliError, loadAll, loadRegistry } from "../load.js";

/**
 * `junction runs list|show|resume` over a store directory (a `FileRunStore`): the approval inbox on
 * the command line. The same functions answer the server's `/runs` routes.
 */

/** Exit code of a run that stopped at interrupts (it waits in the store for decisions). */
export const waitingExitCode = 3;

function storeOf(values: Record<string, unknown>, action: string): FileRunStore {
  const directory = values.store as string | undefined;
  if (directory === undefined || directory === "") {
    throw new CliError(`name the store directory: junction runs ${action} --store <dir>.`, 2);
  }
  return new FileRunStore(directory);
}

function describeInterrupt(item: Interrupt): string {
  const what =
    item.tool === undefined
      ? `component interrupt${item.payload === undefined ? "" : ` ${JSON.stringify(item.payload)}`}`
      : `${item.tool}(${JSON.stringify(item.arguments ?? {})})`;
  return `${item.id}  ${what}`;
}

/** Prints an interrupted run: its id and what waits, and how to go on. */
export function printInterrupted(answer: InterruptedAnswer, json: boolean, store: string | undefined): void {
  if (json) {
    process.stdout.write(`${JSON.stringify(answer)}\n`);
    return;
  }
  process.stdout.write(`run ${answer.run_id} waits for decisions:\n`);
  for (const item of answer.interrupts) process.stdout.write(`  ${describeInterrupt(item)}\n`);
  process.stdout.write(
    `resume: junction runs resume ${answer.run_id} <files> --store ${store ?? "<dir>"} --approve (or --reject, --decisions)\n`,
  );
}

async function list(values: Record<string, unknown>): Promise<number> {
  const store = storeOf(values, "list");
  const status = values.status as "running" | "interrupted" | "completed" | "failed" | undefined;
  if (status !== undefined && !["running", "interrupted", "completed", "failed"].includes(status)) {
    throw new CliError(`--status ${status}: use running, interrupted, completed or failed.`, 2);
  }
  const limit = values.limit === undefined ? 100 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1)
    throw new CliError(`--limit ${String(values.limit)}: not a count.`, 2);
  const runs = await listRuns(store, { status, limit });
  if (values.json === true) {
    process.stdout.write(`${JSON.stringify({ runs })}\n`);
    return 0;
  }
  if (runs.length === 0)
    process.stderr.write(`no runs${status === undefined ? "" : ` with status ${status}`}.\n`);
  for (const run of runs) {
    process.stdout.write(`${run.run_id}  ${run.status}  ${run.updated_at}\n`);
    for (const item of run.interrupts) process.stdout.write(`  ${describeInterrupt(item)}\n`);
  }
  return 0;
}

async function show(values: Record<string, unknown>, runId: string | undefined): Promise<number> {
  if (runId === undefined) throw new CliError("name the run: junction runs show <runId> --store <dir>.", 2);
  const view = await describeRun(storeOf(values, "show"), runId);
  if (values.json === true) {
    process.stdout.write(`${JSON.stringify(view)}\n`);
    return 0;
  }
  const lines = [
    `run       ${view.run_id}`,
    `pipeline  ${view.pipeline ?? "(not named in the id)"}`,
    `status    ${view.status}`,
    `created   ${view.created_at}`,
    `updated   ${view.updated_at}`,
    `history   ${view.history.map((entry) => `${entry.seq}:${entry.status}`).join(" → ")}`,
  ];
  if (view.interrupts.length > 0) {
    lines.push("waiting for:", ...view.interrupts.map((item) => `  ${describeInterrupt(item)}`));
  }
  if (view.outputs !== undefined) lines.push(`outputs   ${JSON.stringify(view.outputs)}`);
  if (view.error !== undefined) lines.push(`error     ${view.error}`);
  process.stdout.write(`${lines.join("\n")}\n`);
  return 0;
}

function readDecisionsOption(text: string): unknown {
  let raw = text;
  if (text.startsWith("@")) {
    try {
      raw = readFileSync(text.slice(1), "utf8");
    } catch {
      throw new CliError(`--decisions ${text}: cannot read the file.`, 2);
    }
  }
  try {
    return JSON.parse(raw);
  } catch (error) {
    throw new CliError(`--decisions: not valid JSON (${(error as Error).message}).`, 2);
  }
}

async function resume(values: Record<string, unknown>, positionals: string[]): Promise<number> {
  const [runId, ...files] = positionals;
  if (runId === undefined || files.length === 0) {
    throw new CliError(
      "name the run and the pipeline files: junction runs resume <runId> <files|dir> --store <dir> --approve.",
      2,
    );
  }
  const store = storeOf(values, "resume");
  const given = [values.approve === true, values.reject === true, values.decisions !== undefined];
  if (given.filter(Boolean).length !== 1) {
    throw new CliError(
      "give exactly one of --approve, --reject [--message <text>] or --decisions <json|@file>.",
      2,
    );
  }
  let decisions: ReturnType<typeof readDecisions>;
  if (values.decisions !== undefined) {
    decisions = readDecisions({ decisions: readDecisionsOption(values.decisions as string) });
  } else {
    const { interrupts } = await describeRun(store, runId);
    const message = values.message as string | undefined;
    const decision =
      values.approve === true
        ? { action: "approve" as const }
        : { action: "reject" as const, ...(message === undefined ? {} : { message }) };
    decisions = Object.fromEntries(interrupts.map((item) => [item.id, decision]));
  }
  const registry = await loadRegistry(values.registry as string | undefined);
  const loaded = await loadAll(files, registry);
  const candidates = Object.entries(loaded).map(([name, servable]) => preparePipeline(name, servable));
  const answer: ResumedAnswer | InterruptedAnswer = await resumeServed(candidates, runId, decisions, {
    store,
  });
  if (answer.status === "interrupted") {
    printInterrupted(answer, values.json === true, values.store as string);
    return waitingExitCode;
  }
  process.stdout.write(
    values.json === true ? `${JSON.stringify(answer)}\n` : `${JSON.stringify(answer.outputs, null, 2)}\n`,
  );
  return 0;
}

/** `junction runs list|show|resume …` */
export async function runs(values: Record<string, unknown>, positionals: string[]): Promise<number> {
  const [action, ...rest] = positionals;
  switch (action) {
    case "list":
      if (rest.length > 0) throw new CliError(`runs list takes no files (got ${rest.join(", ")}).`, 2);
      return list(values);
    case "show":
      return show(values, rest[0]);
    case "resume":
      return resume(values, rest);
    default:
      throw new CliError(
        `${action === undefined ? "name an action" : `unknown action "${action}"`}: junction runs list|show|resume. See junction runs --help.`,
        2,
      );
  }
}
