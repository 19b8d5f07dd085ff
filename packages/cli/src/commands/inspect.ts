import { readFileSync } from "node:fs";
import { extname } from "node:path";
import { describePipelineIO, JunctionError, Pipeline } from "@junction/core";
import { createApp } from "@junction/serve";
import { CliError, loadRegistry } from "../load.js";
import { pickOne } from "./pick.js";

/** `junction validate <file>`: every problem listed; exit code 0 or 1. */
export async function validate(values: Record<string, unknown>, positionals: string[]): Promise<number> {
  const [file, ...extra] = positionals;
  if (file === undefined || extra.length > 0)
    throw new CliError("name one pipeline document: junction validate <file>.", 2);
  const registry = await loadRegistry(values.registry as string | undefined);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    throw new CliError(`${file}: no such file.`, 2);
  }
  const options = registry === undefined ? {} : { registry };
  let pipeline: Pipeline;
  try {
    if (extname(file).toLowerCase() === ".json") {
      let data: unknown;
      try {
        data = JSON.parse(text);
      } catch (error) {
        process.stderr.write(`${file}: invalid\n  - not valid JSON: ${(error as Error).message}\n`);
        return 1;
      }
      pipeline = Pipeline.fromJSON(data, options);
    } else pipeline = Pipeline.fromYAML(text, options);
    describePipelineIO(pipeline, { where: file });
  } catch (error) {
    if (!JunctionError.isInstance(error)) throw error;
    const issues = error.issues.length > 0 ? error.issues : [{ path: [], message: error.message }];
    process.stderr.write(`${file}: invalid (${issues.length} problem${issues.length === 1 ? "" : "s"})\n`);
    for (const issue of issues) {
      process.stderr.write(
        `  - ${issue.path.length > 0 ? `${issue.path.join(".")}: ` : ""}${issue.message}\n`,
      );
    }
    return 1;
  }
  const components = pipeline.componentNames().length;
  const connections = pipeline.connections().length;
  process.stdout.write(
    `${file}: valid (${components} component${components === 1 ? "" : "s"}, ${connections} connection${connections === 1 ? "" : "s"})\n`,
  );
  return 0;
}

/** `junction draw <file>`: the mermaid diagram. */
export async function draw(values: Record<string, unknown>, positionals: string[]): Promise<number> {
  const served = await pickOne(values, positionals, "draw");
  process.stdout.write(`${served.mermaid}\n`);
  return 0;
}

/** `junction schema [--openapi] <file>`: the request/response JSON Schemas, or the OpenAPI document. */
export async function schema(values: Record<string, unknown>, positionals: string[]): Promise<number> {
  const served = await pickOne(values, positionals, "schema");
  if (values.openapi === true) {
    const app = createApp({ pipelines: { [served.name]: served.pipeline }, auth: {} });
    const response = await app.request("/openapi.json", { headers: { host: "localhost" } });
    process.stdout.write(`${JSON.stringify(await response.json(), null, 2)}\n`);
  } else {
    process.stdout.write(
      `${JSON.stringify({ input: served.io.inputSchema, output: served.io.outputSchema }, null, 2)}\n`,
    );
  }
  return 0;
}
