import { watch } from "node:fs";
import { resolve } from "node:path";
import { FileRunStore, MemoryRunStore, type Registry, type RunStore } from "@junction/core";
import { type CreateAppOptions, createApp, serve, serveMcpStdio } from "@junction/serve";
import { CliError, loadAll, loadRegistry } from "../load.js";

type Hono = ReturnType<typeof createApp>;

function parsePort(value: unknown): number {
  if (value === undefined) return 3700;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new CliError(`--port ${String(value)}: not a port number.`, 2);
  return port;
}

/**
 * Waits for SIGINT/SIGTERM. The listeners stay for the life of the process (`on`, not `once`): Ctrl-C
 * reaches every process of the terminal's group, and a second signal while the server closes (from the
 * launcher, or a second Ctrl-C) would otherwise kill the process with Node's default handler (exit 130).
 */
function untilStopped(): Promise<void> {
  return new Promise((done) => {
    const stop = (): void => done();
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}

/** A duration flag in milliseconds (`--run-timeout 30000`), or undefined when not given. */
function parseMilliseconds(flag: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const milliseconds = Number(value);
  if (!Number.isInteger(milliseconds) || milliseconds < 0)
    throw new CliError(`--${flag} ${String(value)}: not a number of milliseconds (0 or more).`, 2);
  return milliseconds;
}

/** What `junction dev` adds to `junction serve`. */
export interface ServeExtras {
  /** The verb, for messages. */
  readonly verb: "serve" | "dev";
  /** Routes mounted after the built-in ones (the playground). */
  readonly routes?: CreateAppOptions["routes"];
  /** A path printed as the first thing to open (`/playground/`). */
  readonly open?: string | undefined;
  /** The store when `--store` is not given (`dev` keeps runs in memory; `serve` keeps none). */
  readonly defaultStore?: (() => RunStore) | undefined;
}

/** `junction serve <files|dir>… [--host] [--port] [--watch]` */
export async function serveCommand(
  values: Record<string, unknown>,
  positionals: string[],
  extras: ServeExtras = { verb: "serve" },
): Promise<number> {
  if (positionals.length === 0)
    throw new CliError(`name pipeline files or a directory: junction ${extras.verb} <files|dir>.`, 2);
  const host = (values.host as string | undefined) ?? "127.0.0.1";
  const port = parsePort(values.port);
  const extraHosts = (values["allowed-host"] as string[] | undefined) ?? [];
  const origins = (values["cors-origin"] as string[] | undefined) ?? [];
  const registryPath = values.registry as string | undefined;
  const registry: Registry | undefined = await loadRegistry(registryPath);
  const wildcard = host === "0.0.0.0" || host === "::";
  const storeDirectory = values.store as string | undefined;
  const store =
    storeDirectory === undefined ? extras.defaultStore?.() : new FileRunStore(resolve(storeDirectory));
  const settings: Omit<CreateAppOptions, "pipelines"> = {
    allowedHosts: extraHosts.includes("*")
      ? "*"
      : [
          "localhost",
          "127.0.0.1",
          "[::1]",
          ...(wildcard ? [] : [host.includes(":") ? `[${host}]` : host]),
          ...extraHosts,
        ],
    ...(origins.length > 0 ? { cors: { origins } } : {}),
    openai: values["no-openai"] !== true,
    mcp: values["no-mcp"] !== true,
    ...(extras.routes !== undefined ? { routes: extras.routes } : {}),
    ...(store === undefined ? {} : { store }),
    run: { timeoutMs: parseMilliseconds("run-timeout", values["run-timeout"]) },
  };
  const timeouts = {
    headersTimeoutMs: parseMilliseconds("headers-timeout", values["headers-timeout"]),
    requestTimeoutMs: parseMilliseconds("request-timeout", values["request-timeout"]),
    keepAliveTimeoutMs: parseMilliseconds("keep-alive-timeout", values["keep-alive-timeout"]),
  };
  const build = async (): Promise<{ app: Hono; names: string[] }> => {
    const pipelines = await loadAll(positionals, registry);
    return { app: createApp({ ...settings, pipelines }), names: Object.keys(pipelines) };
  };
  let current = await build();
  const router = { fetch: (request: Request) => current.app.fetch(request) } as unknown as Hono;
  const server = await serve({ app: router, host, port, ...timeouts });
  // Listening before the address is printed: a signal sent as soon as it appears must find the listeners.
  const stopped = untilStopped();
  process.stdout.write(
    `junction: serving ${current.names.map((name) => `"${name}"`).join(", ")} at ${server.url}\n`,
  );
  if (extras.open !== undefined) process.stdout.write(`  open ${server.url}${extras.open}\n`);
  process.stdout.write(
    `  POST ${server.url}/pipelines/<name>/run · /openapi.json · /v1/chat/completions · /mcp\n`,
  );
  if (store !== undefined) {
    process.stdout.write(
      `  runs kept ${storeDirectory === undefined ? "in memory" : `in ${storeDirectory}`}: GET ${server.url}/runs?status=interrupted\n`,
    );
  }
  if (process.env.JUNCTION_API_KEY) process.stdout.write("  bearer token required (JUNCTION_API_KEY)\n");
  if (wildcard && extraHosts.length === 0) {
    process.stderr.write(
      `junction: bound to ${host}, but only loopback Host names are answered; add --allowed-host <name> for the names clients use.\n`,
    );
  }

  const watchers: ReturnType<typeof watch>[] = [];
  if (values.watch === true) {
    let timer: NodeJS.Timeout | undefined;
    const reload = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        // Documents are re-read; modules are cached by Node and need a restart.
        build().then(
          (next) => {
            current = next;
            process.stdout.write(`junction: reloaded ${next.names.map((name) => `"${name}"`).join(", ")}\n`);
          },
          (error: unknown) => {
            process.stderr.write(
              `junction: reload failed, still serving the previous version: ${(error as Error).message}\n`,
            );
          },
        );
      }, 100);
    };
    for (const path of positionals) watchers.push(watch(resolve(path), reload));
  }
  await stopped;
  for (const watcher of watchers) watcher.close();
  await server.close();
  return 0;
}

/** `junction dev <files|dir>… [--host] [--port]`: `serve --watch` plus the playground page. */
export async function dev(values: Record<string, unknown>, positionals: string[]): Promise<number> {
  const { playgroundRoutes } = await import("@junction/playground");
  return serveCommand({ ...values, watch: values["no-watch"] !== true }, positionals, {
    verb: "dev",
    routes: playgroundRoutes(),
    open: "/playground/",
    defaultStore: () => new MemoryRunStore(),
  });
}

/** `junction mcp <files|dir>…`: MCP over stdio. */
export async function mcp(values: Record<string, unknown>, positionals: string[]): Promise<number> {
  if (positionals.length === 0)
    throw new CliError("name pipeline files or a directory: junction mcp <files|dir>.", 2);
  const registry = await loadRegistry(values.registry as string | undefined);
  const pipelines = await loadAll(positionals, registry);
  const close = await serveMcpStdio(pipelines);
  process.stderr.write(`junction mcp: serving ${Object.keys(pipelines).join(", ")} over stdio\n`);
  await Promise.race([
    untilStopped(),
    new Promise<void>((done) => {
      process.stdin.once("end", () => done());
      process.stdin.once("close", () => done());
    }),
  ]);
  await close();
  return 0;
}
