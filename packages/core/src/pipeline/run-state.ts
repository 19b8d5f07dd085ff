import type { PlanNode, PlanSocket } from "./plan.js";

/**
 * The mutable state of one run: what each input socket holds, and how often each component ran.
 *
 * An entry records who sent a value (`null` for the caller's input) and the value, or {@link NO_OUTPUT}
 * when the sender ran without producing that output (a marker that counts as "the sender executed",
 * never triggers, and never overwrites a real value).
 */

/** The "ran but produced nothing on this socket" marker. */
export const NO_OUTPUT: unique symbol = Symbol("junction.no-output");

/** One value waiting in a socket. */
export interface Entry {
  /** The sending component, or `null` for the caller's input. */
  readonly sender: string | null;
  readonly value: unknown;
}

/** Per-run state. */
export class RunState {
  /** `inputs[node][socket]`: the entries waiting in each socket. */
  readonly inputs: (Entry[] | undefined)[][];
  /** Runs per component so far. */
  readonly visits: number[];
  /** Sockets promoted to lazy variadic for this run only (caller input into a connected list socket). */
  readonly promoted: Set<PlanSocket>;
  /** `maxRunsPerComponent` of this run. */
  readonly maxRuns: number;
  /** Components that have run `maxRuns` times: running any of them again ends the run with an error. */
  readonly atLimit = new Set<PlanNode>();

  constructor(nodes: readonly PlanNode[], promoted: Set<PlanSocket>, maxRuns = Number.POSITIVE_INFINITY) {
    this.inputs = nodes.map((node) => new Array<Entry[] | undefined>(node.sockets.length));
    this.visits = new Array<number>(nodes.length).fill(0);
    this.promoted = promoted;
    this.maxRuns = maxRuns;
  }

  /** Counts one run of `node` and returns its visit number (1 for the first run). */
  countVisit(node: PlanNode): number {
    const visit = this.visits[node.index]! + 1;
    this.visits[node.index] = visit;
    if (visit >= this.maxRuns) this.atLimit.add(node);
    return visit;
  }

  /** Undoes {@link RunState.countVisit} (a member of a paused wave is rolled back). */
  uncountVisit(node: PlanNode): void {
    this.visits[node.index] = this.visits[node.index]! - 1;
    if (this.visits[node.index]! < this.maxRuns) this.atLimit.delete(node);
  }

  /** True when the socket collects one value per sender in this run. */
  isLazy(socket: PlanSocket): boolean {
    return socket.kind === "lazy" || (this.promoted.size > 0 && this.promoted.has(socket));
  }

  /** True when lists arriving on this socket are concatenated (an auto-variadic list socket). */
  flattens(socket: PlanSocket): boolean {
    return socket.autoVariadic || (this.promoted.size > 0 && this.promoted.has(socket));
  }

  /** Writes one value (or the marker) from `sender` into `receiver`'s socket. */
  write(receiver: PlanNode, socket: PlanSocket, sender: string, value: unknown): void {
    const slots = this.inputs[receiver.index]!;
    const current = slots[socket.index];
    if (this.isLazy(socket)) {
      if (current === undefined) slots[socket.index] = [{ sender, value }];
      else current.push({ sender, value });
      return;
    }
    // A real value is never overwritten by a marker; a later real value replaces an earlier one.
    if (current === undefined || current.length === 0 || value !== NO_OUTPUT) {
      slots[socket.index] = [{ sender, value }];
    }
  }

  /**
   * Like {@link RunState.write}, but into a copy of a component's sockets (`slots`, replaced entry lists
   * instead of appending to shared ones): used to look at what a socket will hold before it is written.
   */
  writeCopy(slots: (Entry[] | undefined)[], socket: PlanSocket, sender: string, value: unknown): void {
    const current = slots[socket.index];
    if (this.isLazy(socket)) {
      slots[socket.index] = current === undefined ? [{ sender, value }] : [...current, { sender, value }];
    } else if (current === undefined || current.length === 0 || value !== NO_OUTPUT) {
      slots[socket.index] = [{ sender, value }];
    }
  }

  /**
   * Takes the values `node` runs with: greedy sockets their first value (clearing the socket, caller
   * input included), lazy sockets every value in arrival order, others their first value. Values from
   * senders are consumed; the caller's inputs stay for later visits (except on greedy sockets).
   * Sockets that received nothing are left out (the caller fills defaults).
   */
  consume(node: PlanNode): Record<string, unknown> {
    return this.consumeFrom(node, this.inputs[node.index]!);
  }

  /** {@link RunState.consume} on given socket contents (replaces entries of `slots`, never mutates them). */
  consumeFrom(node: PlanNode, slots: (Entry[] | undefined)[]): Record<string, unknown> {
    const consumed: Record<string, unknown> = {};
    for (const socket of node.sockets) {
      const entries = slots[socket.index];
      if (entries === undefined) continue;
      let first: unknown = NO_OUTPUT;
      let values: unknown[] | undefined;
      let keepsUserInput = false;
      for (const entry of entries) {
        if (entry.sender === null) keepsUserInput = true;
        if (entry.value === NO_OUTPUT) continue;
        if (first === NO_OUTPUT) first = entry.value;
        values ??= [];
        values.push(entry.value);
      }
      if (values !== undefined) {
        if (socket.kind === "greedy") {
          consumed[socket.name] = [first];
          slots[socket.index] = undefined;
          continue;
        }
        if (this.isLazy(socket)) {
          consumed[socket.name] = this.flattens(socket) ? values.flat(1) : values;
        } else {
          consumed[socket.name] = first;
        }
      }
      slots[socket.index] = keepsUserInput ? entries.filter((entry) => entry.sender === null) : undefined;
    }
    return consumed;
  }
}
