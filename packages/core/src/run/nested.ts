import type { PipelineEvent } from "./events.js";

/**
 * How runs nest: a component that runs a pipeline inside itself (a `SuperComponent`) passes the inner
 * run's events up through its `context.emit` wrapped in a {@link NestedEvent}; the engine re-emits them
 * with the component's name prefixed (`outer/inner`), and a direct call hands only the inner chunks to
 * `onEmit`.
 */

/** An event of a nested run, on its way up to the enclosing run. */
export class NestedEvent {
  /** @param event - the inner run's event, attributed to its inner component */
  constructor(readonly event: Exclude<PipelineEvent, { type: "run_end" | "interrupt" }>) {}
}

/** The `emit` of a run nobody streams; components compare against it to skip building events. */
export function dropEmit(): void {}

/** True when what a component emits reaches someone (a stream or an `onEmit` callback). */
export function isStreaming(emit: (payload: unknown) => unknown): boolean {
  return emit !== dropEmit;
}

/** The event as the enclosing run reports it: its component name prefixed with `name/`. */
export function prefixEvent(name: string, event: NestedEvent["event"]): NestedEvent["event"] {
  return { ...event, componentName: `${name}/${event.componentName}` };
}
