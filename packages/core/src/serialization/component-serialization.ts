import type { z } from "zod";
import type {
  ComponentDocument,
  DeserializeContext,
  SerializeContext,
} from "../component/component-serializer.js";
import type { AnyComponent } from "../component/contract.js";
import { getComponentInternals } from "../component/internals.js";
import { defaultRegistry, type Registry } from "../component/registry.js";
import {
  DeserializationError,
  formatIssues,
  type Issue,
  JunctionError,
  SerializationError,
  zodIssues,
} from "../errors/errors.js";
import { excerpt } from "../errors/excerpt.js";
import { didYouMean } from "../errors/suggest.js";
import { copyUntrusted, type Path } from "../json/untrusted-json.js";
import { componentDocumentSchema } from "./document-schema.js";
import { toJSONData } from "./json-data.js";

/** Options of {@link serializeComponent}. */
export interface SerializeComponentOptions {
  /** Where function names are looked up and where the type must be registered (default: the default registry). */
  readonly registry?: Registry | undefined;
  /** The component's path in the enclosing document, for error messages (default: none). */
  readonly path?: readonly (string | number)[] | undefined;
}

/** Options of {@link deserializeComponent}. */
export interface DeserializeComponentOptions {
  /** The registry types and functions are resolved in (default: the default registry). */
  readonly registry?: Registry | undefined;
  /** The component's path in the enclosing document, for error messages (default: none). */
  readonly path?: readonly (string | number)[] | undefined;
}

type PathSuffix = string | number | readonly (string | number)[];

function join(path: Path, suffix: PathSuffix): Path {
  return typeof suffix === "string" || typeof suffix === "number" ? [...path, suffix] : [...path, ...suffix];
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Records what a serializer threw: the issues of a Junction error, or its message at `path`. */
function recordThrown(error: unknown, path: Path, issues: Issue[], what: string): void {
  if (JunctionError.isInstance(error) && error.issues.length > 0) issues.push(...error.issues);
  else issues.push({ path, message: `${what}: ${messageOf(error)}` });
}

/** True when `path` starts with `prefix`. */
function startsWith(path: Path, prefix: Path): boolean {
  return prefix.length <= path.length && prefix.every((part, index) => path[index] === part);
}

function describeFunction(fn: (...args: any[]) => unknown): string {
  return fn.name === "" ? "an anonymous function" : `the function "${excerpt(fn.name)}"`;
}

/**
 * The context a serializer writes through. Problems (an unregistered function, a nested component or
 * a value that cannot be written) are collected in `pending` and a placeholder is returned, so one
 * `toJSON()` reports every value that cannot be written instead of stopping at the first.
 */
function serializeContext(registry: Registry, path: Path, pending: Issue[]): SerializeContext {
  const context: SerializeContext = {
    registry,
    path,
    serializeComponent(component, pathSuffix) {
      const issues: Issue[] = [];
      const doc = writeComponent(component, registry, join(path, pathSuffix), issues);
      if (doc === undefined || issues.length > 0) {
        pending.push(...issues);
        return { type: component.type, init_parameters: {} };
      }
      return doc;
    },
    functionName(fn, pathSuffix) {
      const name = registry.functionName(fn);
      if (name !== undefined) return name;
      pending.push({
        path: join(path, pathSuffix),
        message: `${describeFunction(fn)} is not registered, so it cannot be written by name. Register it with registry.registerFunction("myapp.${fn.name || "myFunction"}", fn) and pass { registry } when saving and loading.`,
      });
      return "";
    },
    serializeValue(value, pathSuffix) {
      const issues: Issue[] = [];
      const out = toJSONData(value, join(path, pathSuffix), issues);
      if (issues.length > 0) {
        pending.push(...issues);
        return null;
      }
      return out;
    },
  };
  return context;
}

function serializationError(where: string, issues: readonly Issue[]): SerializationError {
  return new SerializationError(
    `${where}: cannot serialize (${issues.length} problem${issues.length === 1 ? "" : "s"}):\n${formatIssues(issues)}`,
    { issues },
  );
}

/**
 * Writes one component as `{ type, init_parameters }`, recording problems in `issues`.
 *
 * @returns the document, or `undefined` when it could not be written
 */
export function writeComponent(
  component: AnyComponent,
  registry: Registry,
  path: Path,
  issues: Issue[],
): ComponentDocument | undefined {
  const before = issues.length;
  const type = component.type;
  const definition = getComponentInternals(component).definition;
  if (registry.getComponentClass(type) === undefined) {
    issues.push({
      path: [...path, "type"],
      message: `the type "${excerpt(type)}" is not in the registry, so the document could not be loaded. Register it with registry.register(...).`,
    });
  }
  const initPath = [...path, "init_parameters"];
  let raw: unknown = component.params;
  if (definition.serializer !== undefined) {
    const pending: Issue[] = [];
    try {
      raw = definition.serializer.toInitParameters(
        component.params,
        serializeContext(registry, initPath, pending),
      );
    } catch (error) {
      issues.push(...pending);
      recordThrown(error, initPath, issues, "the component's serializer failed");
      return undefined;
    }
    if (pending.length > 0) {
      issues.push(...pending);
      return undefined;
    }
  }
  const init = toJSONData(raw ?? {}, initPath, issues);
  if (typeof init !== "object" || init === null || Array.isArray(init)) {
    issues.push({ path: initPath, message: "init_parameters must be an object." });
    return undefined;
  }
  if (issues.length > before) return undefined;
  // What is written must load back: check it against the params schema now rather than at load time.
  const schema: z.ZodType | undefined = definition.params;
  if (definition.serializer === undefined && schema !== undefined) {
    const check = schema.safeParse(init);
    if (!check.success) {
      for (const issue of check.error.issues) {
        issues.push({
          path: [...initPath, ...issue.path.map((part) => (typeof part === "symbol" ? String(part) : part))],
          message: `the written value would not load back (${issue.message}). Give the definition a \`serializer\` for values that are not plain JSON.`,
        });
      }
      return undefined;
    }
  }
  return { type, init_parameters: init as Record<string, unknown> };
}

/**
 * Writes a component as `{ type, init_parameters }`.
 *
 * By default `init_parameters` are the validated params, which must be JSON data (secrets are written as
 * env-var references; a token secret is refused). A definition's `serializer.toInitParameters` takes over
 * for components that hold nested components or functions.
 *
 * @param component - the instance
 * @param options - `registry` (default: the default registry), `path` for error messages
 * @throws SerializationError listing every value that cannot be written, with its path
 * @example
 * ```ts
 * serializeComponent(new AddFixedValue({ add: 2 })); // { type: "example.AddFixedValue", init_parameters: { add: 2 } }
 * ```
 */
export function serializeComponent(
  component: AnyComponent,
  options: SerializeComponentOptions = {},
): ComponentDocument {
  const issues: Issue[] = [];
  const doc = writeComponent(component, options.registry ?? defaultRegistry, options.path ?? [], issues);
  if (doc === undefined || issues.length > 0) throw serializationError("serializeComponent", issues);
  return doc;
}

function deserializeContext(registry: Registry, path: Path, issues: Issue[]): DeserializeContext {
  return {
    registry,
    path,
    issues,
    deserializeComponent(doc, pathSuffix) {
      return readComponent(doc, registry, join(path, pathSuffix), issues);
    },
    resolveFunction(name, pathSuffix) {
      const at = join(path, pathSuffix);
      if (typeof name !== "string" || name === "") {
        issues.push({
          path: at,
          message: "expected the registered name of a function (a non-empty string).",
        });
        return undefined;
      }
      const fn = registry.getFunction(name);
      if (fn === undefined) {
        issues.push({
          path: at,
          message: `no function is registered as "${excerpt(name)}". Register it with registry.registerFunction("${excerpt(name)}", fn) and pass { registry }.`,
        });
      }
      return fn;
    },
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Loads one component document (already copied by {@link copyUntrusted}), recording every problem in
 * `issues` with its path.
 *
 * @returns the instance, or `undefined` when it could not be built
 */
export function readComponent(
  doc: unknown,
  registry: Registry,
  path: Path,
  issues: Issue[],
): AnyComponent | undefined {
  const shape = componentDocumentSchema.safeParse(doc);
  if (!shape.success) issues.push(...zodIssues(shape.error, path));
  if (!isRecord(doc)) return undefined;
  const type = doc.type;
  let componentClass: ReturnType<Registry["getComponentClass"]>;
  if (typeof type === "string" && type !== "") {
    componentClass = registry.getComponentClass(type);
    if (componentClass === undefined) {
      issues.push({
        path: [...path, "type"],
        message: `unknown component type "${excerpt(type)}".${didYouMean(type, registry.componentTypes())}${haystackTypeHint(type, registry)} Only registered types can be loaded: import the package that defines it, or register it with createRegistry().register(MyComponent) and pass { registry }.`,
      });
    }
  }
  const initPath = [...path, "init_parameters"];
  const init = Object.hasOwn(doc, "init_parameters") ? doc.init_parameters : {};
  if (!isRecord(init)) return undefined;
  if (componentClass === undefined) return undefined;
  const reported = issues.filter((issue) => startsWith(issue.path, initPath)).map((issue) => issue.path);
  const before = issues.length;
  let raw: unknown = init;
  const serializer = componentClass.definition.serializer;
  if (serializer !== undefined) {
    try {
      raw = serializer.fromInitParameters(init, deserializeContext(registry, initPath, issues));
    } catch (error) {
      recordThrown(error, initPath, issues, "the component's serializer failed");
      return undefined;
    }
  }
  reported.push(...issues.slice(before).map((issue) => issue.path));
  try {
    return new componentClass(raw);
  } catch (error) {
    const paramIssues = JunctionError.isInstance(error) ? error.issues : [];
    const mapped = paramIssues
      .filter((issue) => issue.path[0] === "params")
      .map((issue) => ({ path: [...initPath, ...issue.path.slice(1)], message: issue.message }))
      // A value already reported (or holding a reported nested problem) is not reported twice.
      .filter(
        (issue) => !reported.some((other) => startsWith(issue.path, other) || startsWith(other, issue.path)),
      );
    if (paramIssues.length > 0) issues.push(...mapped);
    else issues.push({ path, message: `could not create the component: ${messageOf(error)}` });
    return undefined;
  }
}

/**
 * Loads a component from `{ type, init_parameters }`.
 *
 * The type is resolved **only** through the registry (never `import()`, `require` or `eval`); the params
 * are validated with the component's zod schema; every problem is reported at once with its path.
 *
 * @param doc - the component document (untrusted input is fine: it is copied and checked first)
 * @param options - `registry` (default: the default registry), `path` for error messages
 * @throws DeserializationError whose `issues` list every problem
 * @example
 * ```ts
 * const adder = deserializeComponent({ type: "example.AddFixedValue", init_parameters: { add: 2 } });
 * ```
 */
export function deserializeComponent(doc: unknown, options: DeserializeComponentOptions = {}): AnyComponent {
  const path = options.path ?? [];
  const issues: Issue[] = [];
  const copy = copyUntrusted(doc, path, issues);
  const component = readComponent(copy, options.registry ?? defaultRegistry, path, issues);
  if (component === undefined || issues.length > 0) {
    throw new DeserializationError(
      `deserializeComponent: cannot load the component (${issues.length} problem${issues.length === 1 ? "" : "s"}):\n${formatIssues(issues)}`,
      { issues },
    );
  }
  return component;
}

/**
 * For a Haystack type path (`haystack.components.retrievers.in_memory.InMemoryBM25Retriever`), the
 * Junction type to write instead: `junction.<ClassName>` (said to be registered when it is).
 */
function haystackTypeHint(type: string, registry: Registry): string {
  if (!/^haystack(_integrations)?\./.test(type)) return "";
  const candidate = `junction.${type.slice(type.lastIndexOf(".") + 1)}`;
  if (registry.getComponentClass(candidate) !== undefined)
    return ` This is a Haystack type path; Junction's component is "${excerpt(candidate)}".`;
  return ` This is a Haystack type path; Junction names its components "junction.<ClassName>" ("${excerpt(candidate)}" once the package that defines it is imported; see docs/haystack-users.md).`;
}
