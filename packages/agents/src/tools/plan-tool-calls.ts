/**
 * State-dependency scheduling of the tool calls of one model turn.
 *
 * Only what the scheduler needs from calls and tools is typed here (structurally), so plans can be
 * computed for `@junction/llm` tools and calls as well as for plain objects.
 */

/** What the scheduler reads from a tool call. */
export interface PlannableToolCall {
  /** The name of the tool to call. */
  readonly toolName: string;
  /** The arguments the model supplied. */
  readonly arguments: Readonly<Record<string, unknown>>;
}

/** What the scheduler reads from a tool. */
export interface PlannableTool {
  /** The tool's name. */
  readonly name: string;
  /** `{ stateKey: parameterName }`: State keys injected as arguments the model did not supply. */
  readonly inputsFromState?: Readonly<Record<string, string>> | undefined;
  /** `{ stateKey: ... }`: State keys the tool's result is merged into. */
  readonly outputsToState?: Readonly<Record<string, unknown>> | undefined;
  /** True when the tool receives the whole live State (it may read and write any key). */
  readonly needsState?: boolean | undefined;
}

/** The State keys one call reads and writes; `"*"` means every key. */
export interface StateAccess {
  /** Keys read (from `inputsFromState`, only for parameters the model did not supply), or `"*"`. */
  readonly reads: ReadonlySet<string> | "*";
  /** Keys written (from `outputsToState`), or `"*"`. */
  readonly writes: ReadonlySet<string> | "*";
}

const none: ReadonlySet<string> = new Set();
const noAccess: StateAccess = { reads: none, writes: none };

/**
 * The State keys a call reads and writes. A call to an unknown tool touches nothing (it becomes an
 * error result without running).
 *
 * @param call - the call
 * @param tool - the tool it names, or `undefined` when there is none
 */
export function stateAccessOf(call: PlannableToolCall, tool: PlannableTool | undefined): StateAccess {
  if (tool === undefined) return noAccess;
  if (tool.needsState === true) return { reads: "*", writes: "*" };
  const reads = new Set<string>();
  for (const [stateKey, parameter] of Object.entries(tool.inputsFromState ?? {})) {
    if (!Object.hasOwn(call.arguments, parameter)) reads.add(stateKey);
  }
  const writes = new Set(Object.keys(tool.outputsToState ?? {}));
  return { reads: reads.size === 0 ? none : reads, writes: writes.size === 0 ? none : writes };
}

function intersects(a: ReadonlySet<string> | "*", b: ReadonlySet<string> | "*"): boolean {
  if (a === "*") return b === "*" || b.size > 0;
  if (b === "*") return a.size > 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const key of small) if (large.has(key)) return true;
  return false;
}

/**
 * Orders the tool calls of one model turn into batches by their State reads and writes.
 *
 * Rules: a call reads the `inputsFromState` keys whose parameter the model did not supply, and writes
 * its `outputsToState` keys. A call that reads a key runs in a later batch than every call that writes
 * it, whichever was requested first. Calls with no such dependency share a batch (they run
 * concurrently). Write-write overlap alone creates no order (results are merged in call order). A
 * tool with `needsState` reads and writes every key, so it is a barrier against every call that touches
 * State. When no call is ready (a cycle, e.g. two calls of a tool that reads and writes the same key),
 * the lowest-index remaining call runs alone.
 *
 * @param calls - the calls, in the order the model requested them
 * @param tools - the available tools (looked up by name; a call to an unknown tool touches no State)
 * @returns batches of indices into `calls`, each sorted ascending; batches run one after another
 * @example
 * ```ts
 * // 0: search writes "documents"; 1: summarize reads "documents"; 2: weather touches no State
 * planToolCalls(calls, tools); // [[0, 2], [1]]
 * ```
 */
export function planToolCalls(
  calls: readonly PlannableToolCall[],
  tools: Iterable<PlannableTool> | ReadonlyMap<string, PlannableTool>,
): number[][] {
  const count = calls.length;
  if (count === 0) return [];
  if (count === 1) return [[0]];
  const byName = toolMap(tools);
  const access = calls.map((call) => stateAccessOf(call, byName.get(call.toolName)));
  // dependencies[j]: the calls that write a key j reads.
  const dependencies: number[][] = [];
  let anyDependency = false;
  for (let j = 0; j < count; j++) {
    const reads = access[j]!.reads;
    const before: number[] = [];
    if (reads === "*" || reads.size > 0) {
      for (let i = 0; i < count; i++) {
        if (i !== j && intersects(reads, access[i]!.writes)) before.push(i);
      }
    }
    if (before.length > 0) anyDependency = true;
    dependencies.push(before);
  }
  if (!anyDependency) return [calls.map((_, index) => index)];
  const done = new Array<boolean>(count).fill(false);
  const batches: number[][] = [];
  let remaining = count;
  while (remaining > 0) {
    let batch: number[] = [];
    for (let k = 0; k < count; k++) {
      if (!done[k] && dependencies[k]!.every((i) => done[i])) batch.push(k);
    }
    if (batch.length === 0) batch = [done.indexOf(false)];
    for (const k of batch) done[k] = true;
    remaining -= batch.length;
    batches.push(batch);
  }
  return batches;
}

function toolMap(
  tools: Iterable<PlannableTool> | ReadonlyMap<string, PlannableTool>,
): ReadonlyMap<string, PlannableTool> {
  if (tools instanceof Map) return tools as ReadonlyMap<string, PlannableTool>;
  const map = new Map<string, PlannableTool>();
  for (const tool of tools as Iterable<PlannableTool>) if (!map.has(tool.name)) map.set(tool.name, tool);
  return map;
}
