import { excerpt } from "@junction/core";
import { type AnyTool, isTool } from "./tool.js";
import { ToolDefinitionError } from "./tool-errors.js";

/** Where a toolset's tools come from: a fixed list, or a function re-read on every access (dynamic). */
export type ToolsetSource = Iterable<AnyTool> | (() => Iterable<AnyTool>);

/** What agents and chat generators take as tools: a toolset, or a list mixing tools and toolsets. */
export type ToolsInput = Toolset | readonly (AnyTool | Toolset)[];

function checkUnique(owner: string, tools: readonly AnyTool[]): void {
  const seen = new Set<string>();
  const duplicates = new Set<string>();
  for (const tool of tools) {
    if (seen.has(tool.name)) duplicates.add(tool.name);
    seen.add(tool.name);
  }
  if (duplicates.size > 0) {
    throw new ToolDefinitionError(
      `${owner}: duplicate tool names found: ${[...duplicates].map((name) => `"${excerpt(name)}"`).join(", ")}. Tool names must be unique; rename one of them.`,
    );
  }
}

function collect(owner: string, items: Iterable<unknown>): AnyTool[] {
  const tools: AnyTool[] = [];
  let index = 0;
  for (const item of items) {
    if (!isTool(item))
      throw new ToolDefinitionError(
        `${owner}: item ${index} is not a Tool. Toolsets hold Tool instances (tool(...), new Tool(...), new ComponentTool(...)).`,
      );
    tools.push(item);
    index++;
  }
  checkUnique(owner, tools);
  return tools;
}

/**
 * A collection of tools with unique names. Iterable; `tools()` returns the current list.
 *
 * Dynamic toolsets take a function instead of a list: it is called on every `tools()` (agents re-read
 * their tools before each step), so tools discovered at run time appear on the next step. Subclasses
 * that load tools asynchronously override `warmUp` and `tools`; subclasses with per-run state override
 * `spawn` to return a fresh copy.
 *
 * @example
 * ```ts
 * const math = new Toolset([add, multiply]);
 * const live = new Toolset(() => registryOfTools.current());
 * for (const tool of math) console.log(tool.name);
 * ```
 */
export class Toolset implements Iterable<AnyTool> {
  #tools: AnyTool[];
  readonly #source: (() => Iterable<AnyTool>) | undefined;

  /**
   * @param source - the tools, or a function returning them (a dynamic toolset)
   * @throws ToolDefinitionError for a single tool, non-tools, or duplicate names
   */
  constructor(source: ToolsetSource = []) {
    if (isTool(source))
      throw new ToolDefinitionError(
        "new Toolset: a single Tool cannot be passed directly; use new Toolset([tool]).",
      );
    if (typeof source === "function") {
      this.#source = source;
      this.#tools = [];
    } else {
      if (source === null || typeof (source as Iterable<unknown>)[Symbol.iterator] !== "function")
        throw new ToolDefinitionError("new Toolset: expected a list of tools or a function returning one.");
      this.#source = undefined;
      this.#tools = collect("new Toolset", source);
    }
  }

  /** The function a dynamic toolset reads its tools from (`undefined` for a fixed list). */
  get source(): (() => Iterable<AnyTool>) | undefined {
    return this.#source;
  }

  /** True when the tools are re-read from a function on every access. */
  get dynamic(): boolean {
    return this.#source !== undefined;
  }

  /**
   * The current tools. For a dynamic toolset the source function runs again (and its result is checked
   * for duplicate names) on every call.
   */
  tools(): readonly AnyTool[] {
    if (this.#source !== undefined) return collect("Toolset.tools", this.#source());
    return this.#tools;
  }

  /** Iterates the current tools. */
  [Symbol.iterator](): Iterator<AnyTool> {
    return this.tools()[Symbol.iterator]();
  }

  /** How many tools there are now. */
  get size(): number {
    return this.tools().length;
  }

  /**
   * True when the toolset holds a tool of that name, or that tool instance.
   *
   * @param nameOrTool - a tool name or a tool
   */
  has(nameOrTool: string | AnyTool): boolean {
    return this.tools().some((tool) =>
      typeof nameOrTool === "string" ? tool.name === nameOrTool : tool === nameOrTool,
    );
  }

  /**
   * The tool named `name`, or `undefined`.
   *
   * @param name - the tool's name
   */
  get(name: string): AnyTool | undefined {
    return this.tools().find((tool) => tool.name === name);
  }

  /**
   * Adds a tool, or every tool of another toolset (static toolsets only).
   *
   * @param item - a tool or a toolset
   * @throws ToolDefinitionError on a duplicate name or for a dynamic toolset
   */
  add(item: AnyTool | Toolset): this {
    if (this.#source !== undefined)
      throw new ToolDefinitionError(
        "Toolset.add: a dynamic toolset reads its tools from its function; add the tool there.",
      );
    const added = item instanceof Toolset ? [...item.tools()] : [item];
    this.#tools = collect("Toolset.add", [...this.#tools, ...added]);
    return this;
  }

  /**
   * The toolset to use for one agent run. Plain toolsets return themselves; subclasses holding per-run
   * state return a fresh copy.
   */
  spawn(): Toolset {
    return this;
  }

  /** Warms up every current tool (each tool's warm-up is idempotent). */
  async warmUp(): Promise<void> {
    for (const tool of this.tools()) await tool.warmUp();
  }

  /**
   * How a subclass writes itself into a saved pipeline: `{ type, data }` with JSON `data`, read back by
   * the function registered under `type` (`registry.registerFunction(type, (data) => toolset)`).
   * Plain toolsets return `undefined` and are written as `junction.Toolset`.
   */
  toDocument(): { readonly type: string; readonly data: Readonly<Record<string, unknown>> } | undefined {
    return undefined;
  }
}

/**
 * Flattens tools and toolsets into one list of tools, reading dynamic toolsets now.
 *
 * @param tools - a toolset, or a list of tools and toolsets (`undefined` gives `[]`)
 * @throws ToolDefinitionError when two tools share a name
 * @example
 * ```ts
 * const all = flattenTools([search, new Toolset([add, multiply])]);
 * ```
 */
export function flattenTools(tools: ToolsInput | undefined): AnyTool[] {
  if (tools === undefined) return [];
  const items = tools instanceof Toolset ? [tools] : tools;
  if (!Array.isArray(items))
    throw new ToolDefinitionError("flattenTools: expected a Toolset or a list of tools and toolsets.");
  const out: AnyTool[] = [];
  for (const item of items) {
    if (item instanceof Toolset) out.push(...item.tools());
    else out.push(item as AnyTool);
  }
  return collect("flattenTools", out);
}
