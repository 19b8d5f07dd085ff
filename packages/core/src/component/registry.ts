import { ComponentError } from "../errors/errors.js";
import { excerpt } from "../errors/excerpt.js";
import type { AnyComponentClass } from "./contract.js";

/**
 * The registry of known component types and named functions.
 *
 * Loading a document resolves `type` strings and function names **only** here: never through
 * `import()`, `require`, `eval` or property walks driven by document strings.
 */
export interface Registry {
  /** Registers a component class under its `type`. Re-registering the same class is a no-op. */
  register(componentClass: AnyComponentClass): this;
  /**
   * Registers a function (tool function, hook, state handler, filter) under a name, so components that
   * hold it can be serialized.
   */
  registerFunction(name: string, fn: (...args: any[]) => unknown): this;
  /** The class registered under `type` (here or in a parent registry). */
  getComponentClass(type: string): AnyComponentClass | undefined;
  /** The function registered under `name` (here or in a parent registry). */
  getFunction(name: string): ((...args: any[]) => unknown) | undefined;
  /** The name `fn` is registered under (here or in a parent registry). */
  functionName(fn: (...args: any[]) => unknown): string | undefined;
  /** Every component type name, sorted. */
  componentTypes(): string[];
  /** Every function name, sorted. */
  functionNames(): string[];
}

/** Options of {@link createRegistry}. */
export interface CreateRegistryOptions {
  /**
   * A registry to fall back to for names not registered here. Defaults to {@link defaultRegistry}, so a
   * user registry also knows every built-in; pass `null` for an empty registry.
   */
  readonly parent?: Registry | null;
}

class MapRegistry implements Registry {
  readonly #components = new Map<string, AnyComponentClass>();
  readonly #functions = new Map<string, (...args: any[]) => unknown>();
  readonly #functionNames = new Map<(...args: any[]) => unknown, string>();
  readonly #parent: Registry | undefined;

  constructor(parent: Registry | undefined) {
    this.#parent = parent;
  }

  register(componentClass: AnyComponentClass): this {
    const type = (componentClass as { type?: unknown }).type;
    if (typeof type !== "string" || (componentClass as { definition?: unknown }).definition === undefined) {
      throw new ComponentError("Registry.register: expected a class made by defineComponent.");
    }
    const existing = this.#components.get(type);
    if (existing !== undefined && existing !== componentClass) {
      throw new ComponentError(
        `Registry.register: the type "${excerpt(type)}" is already registered for another class. Component type names must be unique; prefix yours with your package name.`,
        { componentType: type },
      );
    }
    this.#components.set(type, componentClass);
    return this;
  }

  registerFunction(name: string, fn: (...args: any[]) => unknown): this {
    if (typeof name !== "string" || name.trim() === "") {
      throw new ComponentError("Registry.registerFunction: the name must be a non-empty string.");
    }
    if (typeof fn !== "function") {
      throw new ComponentError(
        `Registry.registerFunction: "${excerpt(name)}" must be registered with a function.`,
      );
    }
    const existing = this.#functions.get(name);
    if (existing !== undefined && existing !== fn) {
      throw new ComponentError(
        `Registry.registerFunction: the name "${excerpt(name)}" is already registered for another function.`,
      );
    }
    this.#functions.set(name, fn);
    if (!this.#functionNames.has(fn)) this.#functionNames.set(fn, name);
    return this;
  }

  getComponentClass(type: string): AnyComponentClass | undefined {
    return this.#components.get(type) ?? this.#parent?.getComponentClass(type);
  }

  getFunction(name: string): ((...args: any[]) => unknown) | undefined {
    return this.#functions.get(name) ?? this.#parent?.getFunction(name);
  }

  functionName(fn: (...args: any[]) => unknown): string | undefined {
    return this.#functionNames.get(fn) ?? this.#parent?.functionName(fn);
  }

  componentTypes(): string[] {
    const names = new Set([...this.#components.keys(), ...(this.#parent?.componentTypes() ?? [])]);
    return [...names].sort();
  }

  functionNames(): string[] {
    const names = new Set([...this.#functions.keys(), ...(this.#parent?.functionNames() ?? [])]);
    return [...names].sort();
  }
}

/**
 * The process-wide registry: every `defineComponent` class registers itself here, so it holds every
 * built-in of every imported package.
 */
export const defaultRegistry: Registry = new MapRegistry(undefined);

/**
 * Creates a registry for loading documents with your own components and functions.
 *
 * @param options - `parent`: where unknown names are looked up (default: {@link defaultRegistry})
 * @example
 * ```ts
 * const registry = createRegistry().register(MyComponent).registerFunction("myapp.search", search);
 * const pipeline = Pipeline.fromJSON(doc, { registry });
 * ```
 */
export function createRegistry(options: CreateRegistryOptions = {}): Registry {
  const parent = options.parent === undefined ? defaultRegistry : (options.parent ?? undefined);
  return new MapRegistry(parent);
}
