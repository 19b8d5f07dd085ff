import type { PlanNode, PlanSocket } from "./plan.js";
import { type Entry, NO_OUTPUT, type RunState } from "./run-state.js";

/**
 * Readiness, as in the reference: a component can run when every mandatory socket is filled and it has a
 * trigger (a real value from a sender, or — on its first visit — caller input or no connected inputs).
 * Among runnable components: HIGHEST when a greedy socket holds a value and every connected socket is
 * filled, READY when every sender has executed (value or marker), otherwise DEFER.
 */

/** Scheduling priorities; lower runs first. */
export const Priority = { Highest: 1, Ready: 2, Defer: 3, Blocked: 4 } as const;
/** One of {@link Priority}'s values. */
export type Priority = (typeof Priority)[keyof typeof Priority];

/** The priority of `node` in the current state. */
export function computePriority(node: PlanNode, state: RunState): Priority {
  return priorityOf(node, state.inputs[node.index]!, state.visits[node.index]!, state);
}

/** The priority `node` would have with these socket contents and visit count (`state` only tells lazy sockets). */
export function priorityOf(
  node: PlanNode,
  slots: readonly (Entry[] | undefined)[],
  visits: number,
  state: RunState,
): Priority {
  if (!socketsReady(node, slots, state, true) || !hasTrigger(node, slots, visits)) return Priority.Blocked;
  if (anyGreedySocketReady(node, slots) && socketsReady(node, slots, state, false)) return Priority.Highest;
  if (allPredecessorsExecuted(node, slots)) return Priority.Ready;
  return Priority.Defer;
}

function isReal(entry: Entry): boolean {
  return entry.value !== NO_OUTPUT;
}

function hasTrigger(node: PlanNode, slots: readonly (Entry[] | undefined)[], visits: number): boolean {
  let userInput = false;
  for (const entries of slots) {
    if (entries === undefined) continue;
    for (const entry of entries) {
      if (entry.sender === null) userInput = true;
      else if (entry.value !== NO_OUTPUT) return true;
    }
  }
  if (visits > 0) return false;
  return userInput || !node.hasConnectedInputs;
}

function socketsReady(
  node: PlanNode,
  slots: readonly (Entry[] | undefined)[],
  state: RunState,
  onlyMandatory: boolean,
): boolean {
  for (const socket of node.sockets) {
    if (!(socket.mandatory || (!onlyMandatory && socket.senders.length > 0))) continue;
    const entries = slots[socket.index];
    const lazy = state.isLazy(socket);
    if (receivedAll(socket, entries, lazy)) continue;
    if (lazy && entries?.some(isReal)) continue;
    return false;
  }
  return true;
}

/** Whether a socket has everything it waits for. */
function receivedAll(socket: PlanSocket, entries: readonly Entry[] | undefined, lazy: boolean): boolean {
  if (entries === undefined || entries.length === 0) return false;
  if (socket.kind === "greedy") {
    if (entries.some(isReal)) return true;
  }
  if (lazy && distinctSenders(entries, true) === socket.distinctSenders) return true;
  return socket.kind === "none" && !lazy && isReal(entries[0]!);
}

function anyGreedySocketReady(node: PlanNode, slots: readonly (Entry[] | undefined)[]): boolean {
  for (const socket of node.sockets) {
    if (socket.kind !== "greedy") continue;
    const entries = slots[socket.index];
    if (entries?.some(isReal)) return true;
  }
  return false;
}

function allPredecessorsExecuted(node: PlanNode, slots: readonly (Entry[] | undefined)[]): boolean {
  for (const socket of node.sockets) {
    if (socket.distinctSenders === 0) continue;
    const entries = slots[socket.index];
    if (entries === undefined) return false;
    if (distinctSenders(entries, false) !== socket.distinctSenders) return false;
  }
  return true;
}

/** How many distinct components sent entries (only real values when `realOnly`); caller input is not counted. */
function distinctSenders(entries: readonly Entry[], realOnly: boolean): number {
  if (entries.length > 8) {
    const senders = new Set<string>();
    for (const entry of entries) {
      if (entry.sender !== null && !(realOnly && entry.value === NO_OUTPUT)) senders.add(entry.sender);
    }
    return senders.size;
  }
  let count = 0;
  for (let index = 0; index < entries.length; index += 1) {
    const entry = entries[index]!;
    if (entry.sender === null || (realOnly && entry.value === NO_OUTPUT)) continue;
    let seen = false;
    for (let earlier = 0; earlier < index; earlier += 1) {
      const other = entries[earlier]!;
      if (other.sender === entry.sender && (!realOnly || other.value !== NO_OUTPUT)) {
        seen = true;
        break;
      }
    }
    if (!seen) count += 1;
  }
  return count;
}
