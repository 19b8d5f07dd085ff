import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, extname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import "@junction/agents";
import "@junction/components";
import "@junction/converters";
import { isComponent, Pipeline, type Registry } from "@junction/core";
import "@junction/documents";
import "@junction/evaluation";
import "@junction/llm";
import "@junction/openai";
import "@junction/pgvector";
import type { Servable } from "@junction/serve";

/**
 * Loading what the command line names: pipeline documents (`.json`, `.yaml`, `.yml`), modules that
 * export pipelines or components (`.ts`, `.mts`, `.js`, `.mjs`), directories of them, and the
 * `--registry` module. Importing this file registers every built-in component type.
 */

/** A problem the user must fix (exit code 2 for usage, 1 otherwise). */
export class CliError extends Error {
  /**
   * @param message - shown on stderr
   * @param exitCode - the process exit code
   */
  constructor(
    message: string,
    readonly exitCode: number = 1,
  ) {
    super(message);
    this.name = "CliError";
  }
}

const documentExtensions = new Set([".json", ".yaml", ".yml"]);
const moduleExtensions = new Set([".ts", ".mts", ".js", ".mjs"]);

function isRegistry(value: unknown): value is Registry {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as Registry).getComponentClass === "function" &&
    typeof (value as Registry).registerFunction === "function"
  );
}

/**
 * Imports the `--registry` module: its `registry` export, or its default export.
 *
 * @param path - the module path
 */
export async function loadRegistry(path: string | undefined): Promise<Registry | undefined> {
  if (path === undefined) return undefined;
  const module = (await importModule(path)) as { registry?: unknown; default?: unknown };
  const registry = module.registry ?? module.default;
  if (!isRegistry(registry)) {
    throw new CliError(
      `--registry ${path}: the module must export a registry (export const registry = createRegistry(); or export default).`,
      2,
    );
  }
  return registry;
}

async function importModule(path: string): Promise<unknown> {
  const absolute = resolve(path);
  try {
    statSync(absolute);
  } catch {
    throw new CliError(`${path}: no such file.`, 2);
  }
  const url = pathToFileURL(absolute).href;
  try {
    return await import(url);
  } catch (error) {
    // A published install runs compiled JavaScript, and Node 20 cannot import a `.ts` file by itself:
    // register tsx (a dependency of this package) for TypeScript modules, then import again.
    if ((error as { code?: unknown }).code !== "ERR_UNKNOWN_FILE_EXTENSION") throw error;
    await registerTypeScript(path);
    // Node remembers the failed import of `url`: import the module under a URL of its own.
    return import(`${url}?typescript`);
  }
}

let typeScriptRegistered: Promise<void> | undefined;

/** Registers tsx's ESM loader once, so `import()` of a `.ts` / `.mts` module works. */
function registerTypeScript(path: string): Promise<void> {
  typeScriptRegistered ??= import("tsx/esm/api").then(
    ({ register }) => {
      register();
    },
    (error: unknown) => {
      typeScriptRegistered = undefined;
      throw new CliError(
        `${path}: this Node cannot import TypeScript by itself and tsx could not be loaded (${(error as Error).message}). Install tsx next to @junction/cli (npm install tsx), or compile the module to .js.`,
        2,
      );
    },
  );
  return typeScriptRegistered;
}

/** The pipeline name for a file: its base name without extension, made URL- and tool-safe. */
export function nameOf(file: string): string {
  return (
    basename(file, extname(file))
      .replace(/[^A-Za-z0-9_.-]/g, "_")
      .slice(0, 64) || "pipeline"
  );
}

/**
 * Loads one file: a document is one pipeline named after the file; a module's default export is a
 * pipeline or component (named after the file) or an object of them (named by key).
 */
export async function loadFile(
  file: string,
  registry: Registry | undefined,
): Promise<Record<string, Servable>> {
  const extension = extname(file).toLowerCase();
  if (documentExtensions.has(extension)) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      throw new CliError(`${file}: no such file.`, 2);
    }
    const options = registry === undefined ? {} : { registry };
    const pipeline =
      extension === ".json"
        ? Pipeline.fromJSON(parseJSON(file, text), options)
        : Pipeline.fromYAML(text, options);
    return { [nameOf(file)]: pipeline };
  }
  if (moduleExtensions.has(extension)) {
    const exported = ((await importModule(file)) as { default?: unknown }).default;
    if (exported instanceof Pipeline || isComponent(exported))
      return { [nameOf(file)]: exported as Servable };
    if (typeof exported === "object" && exported !== null) {
      const entries = Object.entries(exported).filter(
        ([, value]) => value instanceof Pipeline || isComponent(value),
      );
      if (entries.length > 0) return Object.fromEntries(entries) as Record<string, Servable>;
    }
    throw new CliError(
      `${file}: the module's default export must be a Pipeline, a component, or an object of them.`,
      2,
    );
  }
  throw new CliError(
    `${file}: not a pipeline file. Use a document (.json, .yaml, .yml) or a module (.ts, .js, .mjs).`,
    2,
  );
}

function parseJSON(file: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CliError(`${file}: not valid JSON: ${(error as Error).message}`);
  }
}

/** The pipeline files a path names: the file itself, or the pipeline files of a directory (sorted). */
export function pipelineFiles(path: string): string[] {
  let stats: ReturnType<typeof statSync>;
  try {
    stats = statSync(path);
  } catch {
    throw new CliError(`${path}: no such file or directory.`, 2);
  }
  if (!stats.isDirectory()) return [path];
  return readdirSync(path)
    .filter((entry) => documentExtensions.has(extname(entry).toLowerCase()))
    .sort()
    .map((entry) => join(path, entry));
}

/** Loads every file and directory; two pipelines with one name are an error. */
export async function loadAll(
  paths: readonly string[],
  registry: Registry | undefined,
): Promise<Record<string, Servable>> {
  const all: Record<string, Servable> = {};
  for (const path of paths) {
    for (const file of pipelineFiles(path)) {
      for (const [name, servable] of Object.entries(await loadFile(file, registry))) {
        if (Object.hasOwn(all, name))
          throw new CliError(`two pipelines are named "${name}" (from ${file}). Rename a file.`, 2);
        all[name] = servable;
      }
    }
  }
  if (Object.keys(all).length === 0) throw new CliError(`no pipelines found in ${paths.join(", ")}.`, 2);
  return all;
}
