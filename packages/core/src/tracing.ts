/**
 * The tracing interface: spans for pipeline runs, component runs, agent steps, model and tool calls.
 *
 * Parents are passed explicitly so that concurrent spans (parallel components, parallel tool calls) are
 * siblings, not accidentally nested.
 */

/** A span: an operation with tags, ended exactly once. */
export interface Span {
  /** Sets one tag. */
  setTag(key: string, value: unknown): void;
  /** Ends the span; later calls are ignored. */
  end(): void;
}

/** Creates spans. */
export interface Tracer {
  /**
   * Starts a span.
   * @param operationName - e.g. `"junction.component.run"`
   * @param tags - initial tags
   * @param parent - the parent span, when there is one
   */
  startSpan(operationName: string, tags?: Readonly<Record<string, unknown>>, parent?: Span): Span;
}

const noopSpan: Span = {
  setTag() {},
  end() {},
};

/** A tracer that records nothing (the default). */
export const noopTracer: Tracer = {
  startSpan: () => noopSpan,
};

/** A span recorded by {@link InMemoryTracer}. */
export class RecordedSpan implements Span {
  /** The tags, as set. */
  readonly tags: Record<string, unknown>;
  /** Whether `end` was called. */
  ended = false;

  /**
   * @param operationName - the operation
   * @param tags - initial tags
   * @param parent - the parent span, if any
   */
  constructor(
    readonly operationName: string,
    tags: Readonly<Record<string, unknown>>,
    readonly parent: RecordedSpan | undefined,
  ) {
    this.tags = { ...tags };
  }

  /** @inheritDoc */
  setTag(key: string, value: unknown): void {
    this.tags[key] = value;
  }

  /** @inheritDoc */
  end(): void {
    this.ended = true;
  }
}

/** A tracer that keeps every span in memory, in start order; tests read `spans`. */
export class InMemoryTracer implements Tracer {
  /** Every span started, in start order. */
  readonly spans: RecordedSpan[] = [];

  /** @inheritDoc */
  startSpan(
    operationName: string,
    tags: Readonly<Record<string, unknown>> = {},
    parent?: Span,
  ): RecordedSpan {
    const span = new RecordedSpan(operationName, tags, parent instanceof RecordedSpan ? parent : undefined);
    this.spans.push(span);
    return span;
  }

  /** The spans with the given operation name. */
  find(operationName: string): RecordedSpan[] {
    return this.spans.filter((span) => span.operationName === operationName);
  }
}
