import { parseArgs } from "node:util";
import { usage } from "./help.js";

/**
 * The `junction` command: dispatches on the verb, parses its flags with `node:util` `parseArgs`
 * (strict: an unknown flag is a usage error), and maps errors to exit codes. Verbs are imported when
 * used, so `--help` and usage errors answer without loading every package.
 */

type Action = (values: Record<string, unknown>, positionals: string[]) => Promise<number>;

function lazy(load: () => Promise<Action>): Action {
  return async (values, positionals) => (await load())(values, positionals);
}

const run = lazy(async () => (await import("./commands/run.js")).run);
const validate = lazy(async () => (await import("./commands/inspect.js")).validate);
const draw = lazy(async () => (await import("./commands/inspect.js")).draw);
const schema = lazy(async () => (await import("./commands/inspect.js")).schema);
const serveCommand = lazy(async () => (await import("./commands/serve.js")).serveCommand);
const mcp = lazy(async () => (await import("./commands/serve.js")).mcp);
const dev = lazy(async () => (await import("./commands/serve.js")).dev);
const runs = lazy(async () => (await import("./commands/runs.js")).runs);
const evalVerb = lazy(async () => (await import("./commands/eval.js")).evalCommand);
const init = lazy(async () => (await import("./commands/init.js")).init);

type Options = NonNullable<Parameters<typeof parseArgs>[0]>["options"];

const common: Options = {
  help: { type: "boolean", short: "h" },
  registry: { type: "string" },
};

const verbs: Record<string, { options: Options; action: Action }> = {
  run: {
    options: {
      input: { type: "string", short: "i", multiple: true },
      stream: { type: "boolean" },
      json: { type: "boolean" },
      quiet: { type: "boolean", short: "q" },
      name: { type: "string" },
      store: { type: "string" },
    },
    action: run,
  },
  eval: {
    options: {
      dataset: { type: "string", short: "d" },
      metrics: { type: "string", short: "m" },
      input: { type: "string", short: "i", multiple: true },
      documents: { type: "string" },
      answer: { type: "string" },
      "comparison-field": { type: "string" },
      concurrency: { type: "string", short: "c" },
      "run-name": { type: "string" },
      compare: { type: "string" },
      out: { type: "string", short: "o" },
      csv: { type: "string" },
      html: { type: "string" },
      min: { type: "string", multiple: true },
      quiet: { type: "boolean", short: "q" },
      name: { type: "string" },
    },
    action: evalVerb,
  },
  validate: { options: {}, action: validate },
  init: { options: { tarballs: { type: "string" } }, action: init },
  draw: { options: { name: { type: "string" } }, action: draw },
  schema: { options: { openapi: { type: "boolean" }, name: { type: "string" } }, action: schema },
  serve: {
    options: {
      host: { type: "string" },
      port: { type: "string", short: "p" },
      watch: { type: "boolean", short: "w" },
      "allowed-host": { type: "string", multiple: true },
      "cors-origin": { type: "string", multiple: true },
      "no-openai": { type: "boolean" },
      "no-mcp": { type: "boolean" },
      store: { type: "string" },
      "run-timeout": { type: "string" },
      "headers-timeout": { type: "string" },
      "request-timeout": { type: "string" },
      "keep-alive-timeout": { type: "string" },
    },
    action: serveCommand,
  },
  mcp: { options: {}, action: mcp },
  dev: {
    options: {
      host: { type: "string" },
      port: { type: "string", short: "p" },
      "no-watch": { type: "boolean" },
      "allowed-host": { type: "string", multiple: true },
      "no-openai": { type: "boolean" },
      "no-mcp": { type: "boolean" },
      store: { type: "string" },
      "run-timeout": { type: "string" },
    },
    action: dev,
  },
  runs: {
    options: {
      store: { type: "string" },
      status: { type: "string" },
      limit: { type: "string" },
      json: { type: "boolean" },
      approve: { type: "boolean" },
      reject: { type: "boolean" },
      message: { type: "string" },
      decisions: { type: "string" },
    },
    action: runs,
  },
};

/**
 * Runs the command line.
 *
 * @param argv - the arguments after the program name
 * @returns the exit code
 */
export async function main(argv: readonly string[]): Promise<number> {
  const [verb, ...rest] = argv;
  if (verb === undefined || verb === "-h" || verb === "--help" || verb === "help") {
    process.stdout.write(`${usage.junction}\n`);
    return verb === undefined ? 2 : 0;
  }
  if (verb === "--version" || verb === "-v") {
    process.stdout.write("0.1.0\n");
    return 0;
  }
  const spec = verbs[verb];
  if (spec === undefined) {
    process.stderr.write(
      `junction: unknown verb "${verb}". Verbs: ${Object.keys(verbs).join(", ")}. See junction --help.\n`,
    );
    return 2;
  }
  let values: Record<string, unknown>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...rest],
      options: { ...common, ...spec.options },
      allowPositionals: true,
      strict: true,
    }));
  } catch (error) {
    process.stderr.write(`junction ${verb}: ${(error as Error).message}\nSee junction ${verb} --help.\n`);
    return 2;
  }
  if (values.help === true) {
    process.stdout.write(`${usage[verb]}\n`);
    return 0;
  }
  try {
    return await spec.action(values, positionals);
  } catch (error) {
    if (error instanceof Error && error.name === "CliError") {
      process.stderr.write(`junction ${verb}: ${error.message}\n`);
      return (error as Error & { exitCode: number }).exitCode;
    }
    if (
      error instanceof Error &&
      typeof (error as { code?: unknown }).code === "string" &&
      "issues" in error
    ) {
      // A JunctionError (checked by shape, so this file imports no package).
      process.stderr.write(`junction ${verb}: ${error.constructor.name}: ${error.message}\n`);
      return 1;
    }
    process.stderr.write(
      `junction ${verb}: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}\n`,
    );
    return 1;
  }
}
