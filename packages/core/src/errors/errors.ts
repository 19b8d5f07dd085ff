import type { z } from "zod";
import { excerpt } from "./excerpt.js";
/**
 * One base class, `JunctionError`, with a `code` literal and structured fields; subclasses by category.
 *
 * Messages follow one template: where (`Pipeline.connect:`), the quoted names, the fact, and how to fix it.
 */

/** One problem found by a validation pass, with the path to the offending value. */
export interface Issue {
  /** Where the problem is, e.g. `["components", "llm", "init_parameters", "model"]`. */
  readonly path: readonly (string | number)[];
  /** What is wrong and, where possible, how to fix it. */
  readonly message: string;
}

/** The codes of every error Junction throws. */
export type JunctionErrorCode =
  | "COMPONENT_ERROR"
  | "PIPELINE_CONNECT_ERROR"
  | "PIPELINE_VALIDATION_ERROR"
  | "PIPELINE_MAX_COMPONENT_RUNS"
  | "PIPELINE_RUNTIME_ERROR"
  | "PIPELINE_COMPONENTS_BLOCKED"
  | "PIPELINE_VALUE_TOO_DEEP"
  | "PIPELINE_SPARSE_ARRAY"
  | "SERIALIZATION_ERROR"
  | "DESERIALIZATION_ERROR"
  | (string & {});

/** Structured fields an error may carry besides its message. */
export interface JunctionErrorFields {
  /** The component's name in its pipeline, when the error concerns one. */
  readonly componentName?: string | undefined;
  /** The component's registered type name. */
  readonly componentType?: string | undefined;
  /** The socket concerned, `"name"` or `"component.name"`. */
  readonly socket?: string | undefined;
  /** Every problem found, for validation errors. */
  readonly issues?: readonly Issue[] | undefined;
  /** The underlying error. */
  readonly cause?: unknown;
}

const brand = Symbol.for("junction.error");

/**
 * The base class of every error Junction throws.
 *
 * @example
 * ```ts
 * try { await pipeline.run(inputs); } catch (error) {
 *   if (JunctionError.isInstance(error)) console.log(error.code, error.componentName);
 * }
 * ```
 */
export class JunctionError extends Error {
  /** A stable, machine-readable code. */
  readonly code: JunctionErrorCode;
  /** The component's name in its pipeline, when the error concerns one. */
  readonly componentName: string | undefined;
  /** The component's registered type name. */
  readonly componentType: string | undefined;
  /** The socket concerned. */
  readonly socket: string | undefined;
  /** Every problem found (validation errors); empty otherwise. */
  readonly issues: readonly Issue[];
  readonly [brand] = true;

  /**
   * @param code - the error's code
   * @param message - a message that names what failed, why, and how to fix it
   * @param fields - structured fields (component, socket, issues, cause)
   */
  constructor(code: JunctionErrorCode, message: string, fields: JunctionErrorFields = {}) {
    super(message, fields.cause === undefined ? undefined : { cause: fields.cause });
    this.name = new.target.name;
    this.code = code;
    this.componentName = fields.componentName;
    this.componentType = fields.componentType;
    this.socket = fields.socket;
    this.issues = fields.issues ?? [];
  }

  /** True for any Junction error, even one created by another copy of this package. */
  static isInstance(value: unknown): value is JunctionError {
    return typeof value === "object" && value !== null && (value as { [brand]?: unknown })[brand] === true;
  }
}

/** Formats issues as an indented list, one per line, each with its path. */
export function formatIssues(issues: readonly Issue[]): string {
  const shown = issues.length > maxListedIssues ? issues.slice(0, maxListedIssues) : issues;
  const lines = shown.map(
    (issue) =>
      `  - ${issue.path.length > 0 ? `${formatPath(issue.path)}: ` : ""}${excerpt(issue.message, 1_000)}`,
  );
  if (shown.length < issues.length) {
    lines.push(`  … and ${issues.length - shown.length} more (every problem is in the error's issues).`);
  }
  return lines.join("\n");
}

/** How many problems a message lists; the error's `issues` holds them all. */
const maxListedIssues = 50;

/** Formats a path as `a.b[2].c` (each key quoted as a bounded excerpt). */
export function formatPath(path: readonly (string | number)[]): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else {
      const key = excerpt(part, 100);
      out += out === "" ? key : `.${key}`;
    }
  }
  return out;
}

/** A component was declared or constructed wrongly (bad definition, invalid params). */
export class ComponentError extends JunctionError {
  /** @param message - what is wrong and how to fix it @param fields - structured fields */
  constructor(message: string, fields: JunctionErrorFields = {}) {
    super("COMPONENT_ERROR", message, fields);
  }
}

/** `Pipeline.connect` (or loading a document) could not make a connection. */
export class PipelineConnectError extends JunctionError {
  /** @param message - names both ends, why, and how to fix it @param fields - structured fields */
  constructor(message: string, fields: JunctionErrorFields = {}) {
    super("PIPELINE_CONNECT_ERROR", message, fields);
  }
}

/** A pipeline or its run inputs are invalid; `issues` lists every problem with its path. */
export class PipelineValidationError extends JunctionError {
  /** @param message - a summary @param fields - structured fields, usually `issues` */
  constructor(message: string, fields: JunctionErrorFields = {}) {
    super("PIPELINE_VALIDATION_ERROR", message, fields);
  }
}

/** A component was about to run more often than `maxRunsPerComponent` allows. */
export class PipelineMaxComponentRuns extends JunctionError {
  /** @param message - names the component and the limit @param fields - structured fields */
  constructor(message: string, fields: JunctionErrorFields = {}) {
    super("PIPELINE_MAX_COMPONENT_RUNS", message, fields);
  }
}

/** A component failed while the pipeline ran; `componentName`, `componentType` and `cause` say which and why. */
export class PipelineRuntimeError extends JunctionError {
  /** @param message - what failed @param fields - component name/type and the cause */
  constructor(
    message: string,
    fields: JunctionErrorFields = {},
    code: JunctionErrorCode = "PIPELINE_RUNTIME_ERROR",
  ) {
    super(code, message, fields);
  }
}

/** No component of the pipeline can start: every one waits for an input nothing will send. */
export class PipelineComponentsBlockedError extends PipelineRuntimeError {
  /** @param message - names the blocked components @param fields - structured fields */
  constructor(message: string, fields: JunctionErrorFields = {}) {
    super(message, fields, "PIPELINE_COMPONENTS_BLOCKED");
  }
}

/** Something could not be written out (a literal secret, a non-JSON parameter, an unregistered function). */
export class SerializationError extends JunctionError {
  /** @param message - what could not be serialized and how to fix it @param fields - structured fields */
  constructor(message: string, fields: JunctionErrorFields = {}) {
    super("SERIALIZATION_ERROR", message, fields);
  }
}

/** A document could not be loaded; `issues` lists every problem with its path. */
export class DeserializationError extends JunctionError {
  /** @param message - a summary @param fields - structured fields, usually `issues` */
  constructor(message: string, fields: JunctionErrorFields = {}) {
    super("DESERIALIZATION_ERROR", message, fields);
  }
}

/** Converts zod issues into Junction issues under a path prefix. */
export function zodIssues(error: z.ZodError, prefix: readonly (string | number)[] = []): Issue[] {
  return error.issues.map((issue) => ({
    path: [...prefix, ...issue.path.map((part) => (typeof part === "symbol" ? String(part) : part))],
    message: issue.message,
  }));
}
