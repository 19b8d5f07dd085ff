/**
 * Progress on stderr while a run works: a spinner with the component that is running, redrawn in
 * place. Only on a TTY and without `--quiet`; otherwise it does nothing, so piped output stays plain.
 */
export interface Progress {
  /** Shows that `component` is running. */
  update(component: string): void;
  /** Clears the line (before printing anything else, and at the end). */
  clear(): void;
  /** Stops the animation and clears the line. */
  stop(): void;
}

const frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/** A spinner on `stream` when it is a TTY and `quiet` is false; else a no-op. */
export function createProgress(stream: NodeJS.WriteStream, quiet: boolean): Progress {
  if (quiet || !stream.isTTY) return { update() {}, clear() {}, stop() {} };
  let label = "starting";
  let frame = 0;
  let shown = false;
  const draw = () => {
    stream.write(`\r\x1b[2K${frames[frame % frames.length]} running ${label}`);
    frame += 1;
    shown = true;
  };
  const timer = setInterval(draw, 80);
  timer.unref();
  const clear = () => {
    if (shown) stream.write("\r\x1b[2K");
    shown = false;
  };
  return {
    update(component) {
      label = component;
      draw();
    },
    clear,
    stop() {
      clearInterval(timer);
      clear();
    },
  };
}
