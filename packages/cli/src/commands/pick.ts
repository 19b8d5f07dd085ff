import type { Registry } from "@junction/core";
import { preparePipeline, type ServedPipeline } from "@junction/serve";
import { CliError, loadFile, loadRegistry } from "../load.js";

/** Loads the one pipeline a verb works on (`--name` picks one when a module exports several). */
export async function pickOne(
  values: Record<string, unknown>,
  positionals: readonly string[],
  verb: string,
): Promise<ServedPipeline> {
  const [file, ...extra] = positionals;
  if (file === undefined) throw new CliError(`name a pipeline file: junction ${verb} <file>.`, 2);
  if (extra.length > 0) throw new CliError(`one file only (got ${positionals.join(", ")}).`, 2);
  const registry: Registry | undefined = await loadRegistry(values.registry as string | undefined);
  const loaded = await loadFile(file, registry);
  const names = Object.keys(loaded);
  const wanted = values.name as string | undefined;
  const name = wanted ?? (names.length === 1 ? names[0] : undefined);
  if (name === undefined || !Object.hasOwn(loaded, name)) {
    throw new CliError(
      `${file} holds ${names.map((known) => `"${known}"`).join(", ")}: pick one with --name.`,
      2,
    );
  }
  return preparePipeline(name, loaded[name] as NonNullable<(typeof loaded)[string]>);
}
