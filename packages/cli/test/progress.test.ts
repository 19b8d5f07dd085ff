import { afterEach, describe, expect, it, vi } from "vitest";
import { createProgress, progressBar } from "../src/spinner.js";

const clearLine = "\r\x1b[2K";

/** A stand-in for process.stderr that records what is written. */
function fakeStream(isTTY: boolean) {
  const writes: string[] = [];
  const stream = { isTTY, write: (text: string) => writes.push(text) > 0 } as unknown as NodeJS.WriteStream;
  // Each redraw is "\r", erase-line, a spinner frame, a space, then the label.
  const last = () => (writes.at(-1) ?? "").slice(clearLine.length + 2);
  return { stream, writes, last };
}

const progressChunk = (component: string, done: number, total: number) => ({
  event: "chunk",
  data: { component, chunk: { type: "embedding_progress", done, total } },
});

afterEach(() => {
  vi.useRealTimers();
});

describe("junction run progress", () => {
  it("draws an embedder's progress as a bar with done/total after the component starts", () => {
    vi.useFakeTimers();
    const { stream, last } = fakeStream(true);
    const progress = createProgress(stream, false);
    progress.event({ event: "component_start", data: { component: "embedder" } });
    expect(last()).toBe("running embedder");
    progress.event(progressChunk("embedder", 320, 1000));
    expect(last()).toBe("embedding embedder [██████░░░░░░░░░░░░░░] 320/1000");
    progress.event(progressChunk("embedder", 1000, 1000));
    expect(last()).toBe("embedding embedder [████████████████████] 1000/1000");
    vi.advanceTimersByTime(80);
    expect(last()).toBe("embedding embedder [████████████████████] 1000/1000");
    progress.event({ event: "component_start", data: { component: "writer" } });
    expect(last()).toBe("running writer");
    progress.stop();
  });

  it("ignores other chunks (streamed text) and clears its line when stopped", () => {
    const { stream, writes } = fakeStream(true);
    const progress = createProgress(stream, false);
    progress.event({ event: "component_start", data: { component: "llm" } });
    const before = writes.length;
    progress.event({ event: "chunk", data: { component: "llm", chunk: { content: "Hi" } } });
    expect(writes.length).toBe(before);
    progress.stop();
    expect(writes.at(-1)).toBe(clearLine);
  });

  it("writes nothing when stderr is not a TTY or with --quiet", () => {
    for (const [isTTY, quiet] of [
      [false, false],
      [true, true],
    ] as const) {
      const { stream, writes } = fakeStream(isTTY);
      const progress = createProgress(stream, quiet);
      progress.event({ event: "component_start", data: { component: "embedder" } });
      progress.event(progressChunk("embedder", 1, 2));
      progress.stop();
      expect(writes).toEqual([]);
    }
  });

  it("bounds the bar for odd counts", () => {
    expect(progressBar(0, 0)).toBe(`[${"█".repeat(20)}] 0/0`);
    expect(progressBar(5, 3)).toBe(`[${"█".repeat(20)}] 5/3`);
    expect(progressBar(0, 10)).toBe(`[${"░".repeat(20)}] 0/10`);
  });
});
