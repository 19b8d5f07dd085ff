import { isEmbeddingProgress } from "@junction/documents";

/**
 * Progress on stderr while a run works: a spinner with the component that is running, redrawn in
 * place, and a bar for embedders that report how far they have got (`embedding_progress` chunks).
 * Only on a TTY and without `--quiet`; otherwise it does nothing, so piped output stays plain.
 */
export interface Progress {
  /** Shows that `component` is running. */
  update(component: string): void;
  /** Shows an embedder's progress: `embedding <component> [█████░░░░░] 320/1000`. */
  embedding(component: string, done: number, total: number): void;
  /** Shows what a run event says: a component that starts, or an embedder's progress chunk. */
  event(event: { readonly event: string; readonly data: Readonly<Record<string, unknown>> }): void;
  /** Clears the line (before printing anything else, and at the end). */
  clear(): void;
  /** Stops the animation and clears the line. */
  stop(): void;
}

const frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/** Width of the embedding progress bar, in characters. */
const barWidth = 20;

/** `[██████░░░░░░░░░░░░░░] 320/1000` for `done` of `total`. */
export function progressBar(done: number, total: number): string {
  const ratio = total > 0 ? Math.min(1, Math.max(0, done / total)) : 1;
  const filled = Math.round(ratio * barWidth);
  return `[${"█".repeat(filled)}${"░".repeat(barWidth - filled)}] ${done}/${total}`;
}

const silent: Progress = { update() {}, embedding() {}, event() {}, clear() {}, stop() {} };

/** A spinner on `stream` when it is a TTY and `quiet` is false; else a no-op. */
export function createProgress(stream: NodeJS.WriteStream, quiet: boolean): Progress {
  if (quiet || !stream.isTTY) return silent;
  let label = "running starting";
  let frame = 0;
  let shown = false;
  const draw = () => {
    stream.write(`\r\x1b[2K${frames[frame % frames.length]} ${label}`);
    frame += 1;
    shown = true;
  };
  const timer = setInterval(draw, 80);
  timer.unref();
  const clear = () => {
    if (shown) stream.write("\r\x1b[2K");
    shown = false;
  };
  const progress: Progress = {
    update(component) {
      label = `running ${component}`;
      draw();
    },
    embedding(component, done, total) {
      label = `embedding ${component} ${progressBar(done, total)}`;
      draw();
    },
    event({ event, data }) {
      if (event === "component_start") progress.update(String(data.component));
      else if (event === "chunk" && isEmbeddingProgress(data.chunk))
        progress.embedding(String(data.component), data.chunk.done, data.chunk.total);
    },
    clear,
    stop() {
      clearInterval(timer);
      clear();
    },
  };
  return progress;
}
