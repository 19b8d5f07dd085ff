import type { InvokeContext } from "./invoke.js";
import { type Converted, edgeValue } from "./outputs.js";
import type { PlanEdge, PlanNode } from "./plan.js";
import { Priority, priorityOf } from "./readiness.js";
import type { Entry, RunState } from "./run-state.js";
import { runConsumed } from "./wave.js";

/**
 * Early starts: a component of the NEXT wave starts while the current wave is still running, when
 * everything that decides its run is already certain. The scheduling decisions, commit order and every
 * component's inputs stay exactly those of the wave-by-wave run; only the start time moves.
 *
 * When a member of the current wave finishes, its receivers are examined once every member of the wave
 * that sends to them has finished. For such a receiver `C` the engine computes, from the committed state
 * plus the finished-but-uncommitted results written in wave order (a private copy; the run's state is not
 * touched), what `C`'s sockets will hold when the wave has committed. `C` starts early when:
 *
 * - it is not a member of the current wave and every member of the current wave has started;
 * - with those socket contents it is HIGHEST or READY, so it is certainly a member of the next wave;
 * - none of its senders will be a member of the next wave ahead of it (each sender's contents are
 *   computed the same way; a sender whose contents still depend on a running member means "wait");
 * - its next visit stays within `maxRunsPerComponent`, and no component that has used up its runs can be a
 *   member of the next wave (that wave would end the run with `PipelineMaxComponentRuns` before any of
 *   its members starts, so at concurrency 1 `C` would never have run);
 * - the concurrency cap has room.
 *
 * Its inputs are taken from that copy; the real consumption, visit count and commit happen when the next
 * wave starts, in `C`'s place in that wave. Only one wave ahead is looked at.
 */

/** Component runs in flight across waves, for the concurrency cap. */
export interface Budget {
  inFlight: number;
  readonly limit: number;
}

/** A component of the next wave started early; its result waits for its place in that wave. */
export interface EarlyRun {
  readonly node: PlanNode;
  /** Settles (never rejects) when the run ended; then `outcome` is set. */
  readonly settled: Promise<void>;
  outcome: { readonly result: Record<string, unknown> } | { readonly error: unknown } | undefined;
}

/** What the lookahead reads of the wave that is running. */
export interface WaveView {
  readonly members: readonly PlanNode[];
  readonly position: ReadonlyMap<PlanNode, number>;
  readonly started: readonly boolean[];
  readonly results: readonly (Record<string, unknown> | undefined)[];
  /** How many members (a prefix) have been committed. */
  readonly applied: () => number;
  /** True once every member has started. */
  readonly allStarted: () => boolean;
}

type Slots = (Entry[] | undefined)[];
type Verdict = "started" | "never" | "later";

/** Finds and starts next-wave components early (see the module comment). One per run. */
export class Lookahead {
  /** Conversions made for the current wave's outputs, shared with the commit. */
  readonly converted = new Map<PlanEdge, Converted>();
  readonly #state: RunState;
  readonly #context: InvokeContext;
  readonly #maxRuns: number;
  readonly #budget: Budget;
  #next = new Map<PlanNode, EarlyRun>();
  readonly #unsettled = new Set<EarlyRun>();
  readonly #pending = new Map<PlanNode, number>();
  readonly #candidates = new Set<PlanNode>();
  #wave: WaveView | undefined;

  constructor(state: RunState, context: InvokeContext, maxRuns: number, budget: Budget) {
    this.#state = state;
    this.#context = context;
    this.#maxRuns = maxRuns;
    this.#budget = budget;
  }

  /** Hands over the early runs of the wave about to start (and forgets them). */
  take(): ReadonlyMap<PlanNode, EarlyRun> {
    const taken = this.#next;
    if (taken.size > 0) this.#next = new Map();
    return taken;
  }

  /** True while some early run has not settled. */
  get busy(): boolean {
    return this.#unsettled.size > 0;
  }

  /** Resolves when every early run has settled (after the run was aborted). */
  async settleAll(): Promise<void> {
    await Promise.all([...this.#unsettled].map((run) => run.settled));
  }

  /** Starts watching a multi-member wave. */
  beginWave(view: WaveView): void {
    this.#wave = view;
    this.#pending.clear();
    this.#candidates.clear();
    for (const member of view.members) {
      for (const receiver of member.receivers) {
        this.#pending.set(receiver, (this.#pending.get(receiver) ?? 0) + 1);
      }
    }
  }

  /** Called after `member`'s result was stored (and committed, if its turn had come). */
  memberFinished(member: PlanNode): void {
    const wave = this.#wave!;
    for (const receiver of member.receivers) {
      const left = this.#pending.get(receiver)! - 1;
      this.#pending.set(receiver, left);
      if (left === 0 && !wave.position.has(receiver)) this.#candidates.add(receiver);
    }
    if (this.#candidates.size === 0 || this.#context.runSignal.aborted) return;
    if (!wave.allStarted()) return;
    for (const candidate of this.#candidates) {
      if (this.#budget.inFlight >= this.#budget.limit) return;
      if (this.#consider(candidate, wave) !== "later") this.#candidates.delete(candidate);
    }
  }

  #consider(node: PlanNode, wave: WaveView): Verdict {
    const state = this.#state;
    const visits = state.visits[node.index]!;
    if (this.#next.has(node) || visits >= this.#maxRuns) return "never";
    const slots = this.#projected(node, wave);
    if (slots === null) return "never";
    if (slots === undefined) return "later";
    const priority = priorityOf(node, slots, visits, state);
    if (priority !== Priority.Highest && priority !== Priority.Ready) return "never";
    for (const sender of node.senders) {
      if (sender === node) continue;
      const senderSlots = this.#projected(sender, wave);
      if (senderSlots === null) return "never";
      if (senderSlots === undefined) return "later";
      const senderPriority = priorityOf(sender, senderSlots, state.visits[sender.index]!, state);
      if (
        (senderPriority === Priority.Highest || senderPriority === Priority.Ready) &&
        (senderPriority < priority || (senderPriority === priority && sender.name < node.name))
      ) {
        return "never"; // it runs ahead of `node` in the next wave and sends to it: `node` must wait
      }
    }
    const limits = this.#limitsClear(node, wave);
    if (limits !== "started") return limits;
    this.#start(node, slots === state.inputs[node.index] ? slots.slice() : slots, visits + 1);
    return "started";
  }

  /**
   * "started" when no component that has run `maxRunsPerComponent` times can be a member of the next wave
   * (so the next wave passes its limit check and `node` may start); "never" when one will be; "later"
   * while that still depends on a running member. A component at its limit that is neither a member of
   * the running wave nor a receiver of one keeps the inputs it had when the wave was formed, so it was not
   * runnable then and is not now.
   */
  #limitsClear(node: PlanNode, wave: WaveView): Verdict {
    const state = this.#state;
    for (const exhausted of state.atLimit) {
      if (exhausted === node) return "never";
      if (!wave.position.has(exhausted) && !this.#pending.has(exhausted)) continue;
      const slots = this.#projected(exhausted, wave);
      if (slots === null) return "never";
      if (slots === undefined) return "later";
      const priority = priorityOf(exhausted, slots, state.visits[exhausted.index]!, state);
      if (priority === Priority.Highest || priority === Priority.Ready) return "never";
    }
    return "started";
  }

  /**
   * What `node`'s sockets will hold once the running wave has committed: `undefined` while that still
   * depends on a member that has not started or not finished, `null` when it cannot be told (a
   * conversion failed). Returns the live array when nothing is left to write.
   */
  #projected(node: PlanNode, wave: WaveView): Slots | undefined | null {
    const at = wave.position.get(node);
    if (at !== undefined && !wave.started[at]) return undefined;
    const applied = wave.applied();
    let order: number[] | undefined;
    for (const sender of node.senders) {
      const index = wave.position.get(sender);
      if (index === undefined || index < applied) continue;
      if (wave.results[index] === undefined) return undefined;
      order ??= [];
      order.push(index);
    }
    const live = this.#state.inputs[node.index]!;
    if (order === undefined) return live;
    if (order.length > 1) order.sort((a, b) => a - b);
    const slots = live.slice();
    for (const index of order) {
      const sender = wave.members[index]!;
      const result = wave.results[index]!;
      for (const edge of sender.edges) {
        if (edge.receiver !== node) continue;
        let value: unknown;
        try {
          value = edgeValue(sender, edge, result, this.converted);
        } catch {
          return null;
        }
        this.#state.writeCopy(slots, edge.receiverSocket, sender.name, value);
      }
    }
    return slots;
  }

  #start(node: PlanNode, slots: Slots, visit: number): void {
    const consumed = this.#state.consumeFrom(node, slots);
    const controller = new AbortController();
    const runSignal = this.#context.runSignal;
    const onAbort = () => controller.abort(runSignal.reason);
    runSignal.addEventListener("abort", onAbort, { once: true });
    this.#budget.inFlight += 1;
    const early: { -readonly [K in keyof EarlyRun]: EarlyRun[K] } = {
      node,
      settled: undefined as unknown as Promise<void>,
      outcome: undefined,
    };
    let run: Promise<Record<string, unknown>>;
    try {
      run = runConsumed(node, consumed, visit, controller.signal, this.#context);
    } catch (error) {
      run = Promise.reject(error);
    }
    early.settled = run.then(
      (result) => {
        early.outcome = { result };
      },
      (error: unknown) => {
        early.outcome = { error };
      },
    );
    void early.settled.then(() => {
      this.#budget.inFlight -= 1;
      runSignal.removeEventListener("abort", onAbort);
      this.#unsettled.delete(early);
    });
    this.#unsettled.add(early);
    this.#next.set(node, early);
  }
}
