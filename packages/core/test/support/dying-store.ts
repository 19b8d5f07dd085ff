import { MemoryRunStore, type RunSnapshot, type RunStore } from "@junction/core";

/**
 * A store whose process "dies" at a chosen step delta: that write and every write after it never
 * finish (nothing more reaches the store), as when the process is killed mid-run.
 */
export class DyingStore implements RunStore {
  readonly inner = new MemoryRunStore();
  #steps = 0;
  dead = false;

  constructor(readonly dieAtStep: number) {}

  #hang<T>(): Promise<T> {
    this.dead = true;
    return new Promise<T>(() => {});
  }

  save(snapshot: RunSnapshot, expectedSeq: number | null): Promise<void> {
    return this.dead ? this.#hang() : this.inner.save(snapshot, expectedSeq);
  }
  load(runId: string, seq?: number) {
    return this.inner.load(runId, seq);
  }
  history(runId: string) {
    return this.inner.history(runId);
  }
  list() {
    return this.inner.list();
  }
  appendDelta(runId: string, seq: number, delta: unknown): Promise<void> {
    if (this.dead) return this.#hang();
    if (typeof delta === "object" && delta !== null && "step" in delta && ++this.#steps === this.dieAtStep)
      return this.#hang();
    return this.inner.appendDelta(runId, seq, delta);
  }
  deltas(runId: string, seq: number) {
    return this.inner.deltas(runId, seq);
  }
  delete(runId: string) {
    return this.inner.delete(runId);
  }
}
