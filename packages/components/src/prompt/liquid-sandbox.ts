import { excerpt } from "@junction/core";
import {
  Context,
  type FS,
  Liquid,
  type Parser,
  Tag,
  type TagToken,
  type Template,
  type TopLevelToken,
} from "liquidjs";
import { jinjaMisreadProblem, jinjaParseHint } from "./jinja-syntax.js";

/** A tag class as LiquidJS's `registerTag` takes it. */
export type TagClass = new (
  token: TagToken,
  remainTokens: TopLevelToken[],
  liquid: Liquid,
  parser: Parser,
) => Tag;

/**
 * The sandboxed LiquidJS engine of the prompt builders.
 *
 * - `ownPropertyOnly`: a template reads own properties only — no `constructor`, `__proto__` or
 *   prototype methods. (The data a template sees is also copied into plain data first, so there are
 *   no functions or getters to reach.)
 * - No file system: `include`, `render` and `layout` are disabled at parse time, and the file-system
 *   adapter rejects every lookup.
 * - `strictFilters`: an unknown filter is a parse error instead of being skipped silently.
 * - Limits: template length (`parseLimit`), render time (`renderLimit`) and allocations (`memoryLimit`),
 *   so a template cannot hang or exhaust the process.
 * - Output: strings as is, numbers and booleans as text, `null` as nothing, lists and maps as JSON.
 */

/** The longest template accepted, in characters. */
export const maxTemplateLength = 1_000_000;
/** The longest a render may take, in milliseconds. */
export const maxRenderMilliseconds = 1_000;
/** The allocation budget of one render (LiquidJS counts array and string growth). */
export const maxRenderMemory = 20_000_000;

const noFileSystem: FS = {
  exists: async () => false,
  existsSync: () => false,
  readFile: async (file) => {
    throw new Error(`templates cannot read files ("${excerpt(file)}").`);
  },
  readFileSync: (file) => {
    throw new Error(`templates cannot read files ("${excerpt(file)}").`);
  },
  resolve: (_directory, file) => file,
  contains: async () => false,
  containsSync: () => false,
};

/** A tag that refuses to parse: file access is not available in prompt templates. */
function disabledTag(name: string): TagClass {
  return class DisabledTag extends Tag {
    constructor(...args: ConstructorParameters<typeof Tag>) {
      super(...args);
      throw new Error(
        `the "${excerpt(name)}" tag is disabled: prompt templates cannot read other templates or files. Inline the text, or pass it in as a variable.`,
      );
    }
    render(): void {}
  };
}

function jsonReplacer(_key: string, value: unknown): unknown {
  return typeof value === "bigint" ? value.toString() : value;
}

/** How a `{{ value }}` prints. */
export function printValue(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint")
    return String(value);
  if (value instanceof Date) return value.toISOString();
  return JSON.stringify(value, jsonReplacer) ?? "";
}

/**
 * Creates a sandboxed Liquid engine.
 *
 * @param extraTags - more tags to register (the chat builder's `message` and `insert`)
 */
export function createSandboxedLiquid(extraTags: Readonly<Record<string, TagClass>> = {}): Liquid {
  const liquid = new Liquid({
    ownPropertyOnly: true,
    strictFilters: true,
    strictVariables: false,
    fs: noFileSystem,
    root: [],
    partials: [],
    layouts: [],
    relativeReference: false,
    dynamicPartials: false,
    cache: false,
    jsTruthy: false,
    outputEscape: printValue,
    parseLimit: maxTemplateLength,
    renderLimit: maxRenderMilliseconds,
    memoryLimit: maxRenderMemory,
  });
  for (const name of ["include", "render", "layout"]) liquid.registerTag(name, disabledTag(name));
  for (const [name, tag] of Object.entries(extraTags)) liquid.registerTag(name, tag);
  return liquid;
}

/** A parsed template and the variables it reads from its caller. */
export interface ParsedTemplate {
  /** The template text. */
  readonly source: string;
  /** LiquidJS's parsed form. */
  readonly templates: Template[];
  /** The variables the template expects (assigned and loop variables excluded), in order of use. */
  readonly variables: readonly string[];
}

/**
 * Parses a template and lists its variables with LiquidJS's static analysis.
 *
 * @param liquid - the sandboxed engine
 * @param source - the template text
 * @throws the LiquidJS parse error, with the Liquid spelling of any Jinja found in the template; or an
 *   error naming Jinja that parses but that Liquid would read differently (callers wrap both with context)
 */
export function parseTemplate(liquid: Liquid, source: string): ParsedTemplate {
  if (typeof source !== "string") throw new Error("a template must be a string.");
  if (source.length > maxTemplateLength) {
    throw new Error(`the template is longer than ${maxTemplateLength} characters.`);
  }
  let templates: Template[];
  try {
    templates = liquid.parse(source);
  } catch (error) {
    // LiquidJS's message says where, not why: a Haystack user's Jinja gets its Liquid spelling.
    const hint = jinjaParseHint(source);
    if (hint === undefined) throw error;
    throw new Error(`${error instanceof Error ? error.message : String(error)}. ${hint}`, { cause: error });
  }
  const misread = jinjaMisreadProblem(source);
  if (misread !== undefined) throw new Error(misread);
  const variables = liquid.globalVariablesSync(templates);
  return Object.freeze({ source, templates, variables: Object.freeze([...variables]) });
}

/**
 * Renders a parsed template synchronously in a fresh context and returns the text and the context
 * (tags such as `message` leave their results in the context's registers).
 *
 * @param liquid - the engine that parsed the template
 * @param template - the parsed template
 * @param scope - the variables, already copied into plain data
 * @param registers - values for tags to read (`context.getRegister(key)`)
 */
export function renderTemplate(
  liquid: Liquid,
  template: ParsedTemplate,
  scope: Record<string, unknown>,
  registers: Readonly<Record<string, unknown>> = {},
): string {
  const context = new Context(scope, liquid.options, { sync: true }, { liquid });
  for (const [key, value] of Object.entries(registers)) context.setRegister(key, value);
  return printValue(liquid.renderSync(template.templates, context));
}
