import { MemoryRunStore, type RunSnapshot, type RunStore } from "@junction/core";

/**
 * A store whose process "dies" at a chosen step delta: that write and every write after it never
 * finish (nothing more reaches the store), as when the process is killed mid-run.
 */
export class DyingStore implements RunStore {
  readonly inner = new MemoryRunStore();
  #steps = 0;
  dead = false;

  /**
   * @param dieAtStep - the step delta (1-based, heartbeats not counted) whose write never finishes
   * @param options - `foreignProcess`: write leases as if the runner were another process of this host
   *   that no longer exists, so a takeover may start at once (no waiting for the lease to expire)
   */
  constructor(
    readonly dieAtStep: number,
    readonly options: { readonly foreignProcess?: boolean } = {},
  ) {}

  #hang<T>(): Promise<T> {
    this.dead = true;
    return new Promise<T>(() => {});
  }

  save(snapshot: RunSnapshot, expectedSeq: number | null): Promise<void> {
    if (this.dead) return this.#hang();
    const lease = snapshot.lease;
    // Linux pids stay below 2^22: this one never belongs to a live process.
    const saved =
      this.options.foreignProcess === true && lease !== undefined
        ? { ...snapshot, lease: { ...lease, pid: 2 ** 22 + 1 } }
        : snapshot;
    return this.inner.save(saved, expectedSeq);
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
