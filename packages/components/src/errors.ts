import { JunctionError, type JunctionErrorFields } from "@junction/core";

/**
 * Errors of `@junction/components`. Each extends core's {@link JunctionError} with its own `code`,
 * so `JunctionError.isInstance(error) && error.code === "NO_ROUTE_SELECTED"` works across copies of
 * the package.
 */

/** Structured fields of a router error: which route failed. */
export interface RouteErrorFields extends JunctionErrorFields {
  /** The index of the route in `routes`. */
  readonly routeIndex?: number | undefined;
}

/**
 * No route's condition was true. The message lists every route's condition and output names; add a
 * catch-all route (`condition: "true"`) to make the router total.
 */
export class NoRouteSelectedError extends JunctionError {
  /** @param message - lists the routes @param fields - structured fields */
  constructor(message: string, fields: JunctionErrorFields = {}) {
    super("NO_ROUTE_SELECTED", message, fields);
  }
}

/**
 * A route's condition or output failed to evaluate, a condition was not a `bool`, or an output did not
 * match its `outputType` (with `validateOutputType`). `routeIndex` says which route.
 */
export class RouteConditionError extends JunctionError {
  /** The index of the route in `routes`. */
  readonly routeIndex: number | undefined;

  /** @param message - names the route, the fact and the fix @param fields - structured fields */
  constructor(message: string, fields: RouteErrorFields = {}) {
    super("ROUTE_CONDITION_ERROR", message, fields);
    this.routeIndex = fields.routeIndex;
  }
}

/** `OutputAdapter`'s expression failed to evaluate or produced a value that does not match `outputType`. */
export class OutputAdaptationError extends JunctionError {
  /** @param message - names the expression, the fact and the fix @param fields - structured fields */
  constructor(message: string, fields: JunctionErrorFields = {}) {
    super("OUTPUT_ADAPTATION_ERROR", message, fields);
  }
}

/**
 * A prompt template failed at run time: a runtime `template` that does not parse, a render error, a
 * render that exceeded the sandbox limits, or a chat template that produced no valid messages.
 */
export class PromptRenderError extends JunctionError {
  /** @param message - names the template problem and the fix @param fields - structured fields */
  constructor(message: string, fields: JunctionErrorFields = {}) {
    super("PROMPT_RENDER_ERROR", message, fields);
  }
}
