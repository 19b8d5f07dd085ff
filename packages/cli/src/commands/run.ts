import { FileRunStore } from "@junction/core";
import { StreamingChunk } from "@junction/llm";
import { type InterruptedAnswer, type RunAnswer, streamServed } from "@junction/serve";
import { checkNestedInputs, parseInputs } from "../input.js";
import { createProgress } from "../spinner.js";
import { pickOne } from "./pick.js";
import { printInterrupted, waitingExitCode } from "./runs.js";

/** `junction run <file> --input name=value… [--stream] [--json] [--quiet] [--store <dir>]` */
export async function run(values: Record<string, unknown>, positionals: string[]): Promise<number> {
  const served = await pickOne(values, positionals, "run");
  const request = parseInputs((values.input as string[] | undefined) ?? []);
  checkNestedInputs(request, served.io, positionals[0] ?? served.name);
  const stream = values.stream === true;
  const progress = createProgress(process.stderr, values.quiet === true || stream);
  const controller = new AbortController();
  const interrupt = () => controller.abort(new DOMException("Interrupted.", "AbortError"));
  process.once("SIGINT", interrupt);
  const storeDirectory = values.store as string | undefined;
  const store = storeDirectory === undefined ? undefined : new FileRunStore(storeDirectory);
  let answer: RunAnswer | undefined;
  let interrupted: InterruptedAnswer | undefined;
  let streamedText = false;
  try {
    for await (const event of streamServed(served, request, {
      signal: controller.signal,
      ...(store === undefined ? {} : { store }),
    })) {
      progress.event(event);
      if (event.event === "chunk" && stream) {
        const chunk = event.data.chunk;
        if (chunk instanceof StreamingChunk && chunk.content !== "") {
          process.stdout.write(chunk.content);
          streamedText = true;
        }
      } else if (event.event === "interrupt") interrupted = event.data as unknown as InterruptedAnswer;
      else if (event.event === "run_end") answer = event.data as unknown as RunAnswer;
    }
  } catch (error) {
    if (controller.signal.aborted) {
      progress.stop();
      process.stderr.write("junction run: interrupted.\n");
      return 130;
    }
    throw error;
  } finally {
    progress.stop();
    process.off("SIGINT", interrupt);
  }
  if (streamedText) process.stdout.write("\n");
  if (interrupted !== undefined) {
    if (store === undefined) {
      process.stderr.write(
        `junction run: the run stopped for decisions on ${interrupted.interrupts.map((item) => `"${item.id}"`).join(", ")}; run it with --store <dir> to keep it and decide with junction runs resume.\n`,
      );
      return 1;
    }
    printInterrupted(interrupted, values.json === true, storeDirectory);
    return waitingExitCode;
  }
  if (answer === undefined) return 1;
  if (values.json === true) process.stdout.write(`${JSON.stringify(answer)}\n`);
  else {
    process.stdout.write(`${JSON.stringify(answer.outputs, null, 2)}\n`);
    for (const report of answer.never_ran)
      process.stderr.write(`never ran: ${report.component} — ${report.reason}\n`);
  }
  return 0;
}
