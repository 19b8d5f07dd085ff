import type { AddressInfo } from "node:net";
import { serve as serveNode } from "@hono/node-server";
import type { Hono } from "hono";

/** Options of {@link serve}. */
export interface ServeOptions {
  /** The app from {@link createApp}. */
  readonly app: Hono;
  /** The interface to bind (default `127.0.0.1`: reachable from this machine only). */
  readonly host?: string | undefined;
  /** The port (default 3700; `0` picks a free one). */
  readonly port?: number | undefined;
  /**
   * Milliseconds a client has to send a request's headers (default 30 000): a connection that
   * trickles headers (slowloris) is closed with 408.
   */
  readonly headersTimeoutMs?: number | undefined;
  /**
   * Milliseconds a client has to send a whole request, body included (default 60 000). It does not
   * limit the answer: a long run or SSE stream is bounded by the run timeout (`createApp({ run: { timeoutMs } })`).
   */
  readonly requestTimeoutMs?: number | undefined;
  /** Milliseconds an idle keep-alive connection stays open between requests (default 5 000). */
  readonly keepAliveTimeoutMs?: number | undefined;
}

/** The defaults of {@link ServeOptions}' timeouts. */
const timeoutDefaults = { headersTimeoutMs: 30_000, requestTimeoutMs: 60_000, keepAliveTimeoutMs: 5_000 };

/** A running server. */
export interface RunningServer {
  /** `http://host:port` */
  readonly url: string;
  /** The bound port. */
  readonly port: number;
  /** Stops accepting connections, ends open ones, and resolves when closed. */
  close(): Promise<void>;
}

/**
 * Starts the app on Node's HTTP server (`@hono/node-server`), on `127.0.0.1` unless told otherwise.
 * Binding another interface does not widen the allowed Host names: pass `allowedHosts` to
 * `createApp` (or `"*"` behind a proxy that checks Host).
 *
 * @param options - app, host, port, and the server's timeouts
 * @returns the URL and a `close` function
 * @example
 * ```ts
 * const server = await serve({ app: createApp({ pipelines: { chat: agent } }), port: 0 });
 * console.log(server.url);
 * await server.close();
 * ```
 */
export function serve(options: ServeOptions): Promise<RunningServer> {
  const host = options.host ?? "127.0.0.1";
  return new Promise((resolve, reject) => {
    const headersTimeout = options.headersTimeoutMs ?? timeoutDefaults.headersTimeoutMs;
    const requestTimeout = options.requestTimeoutMs ?? timeoutDefaults.requestTimeoutMs;
    const server = serveNode(
      {
        fetch: options.app.fetch,
        hostname: host,
        port: options.port ?? 3700,
        serverOptions: {
          headersTimeout,
          // Node requires requestTimeout ≥ headersTimeout (0 turns it off).
          requestTimeout: requestTimeout === 0 ? 0 : Math.max(requestTimeout, headersTimeout),
          // How often Node looks for expired connections (its default, 30 s, would outlast short limits).
          connectionsCheckingInterval: Math.min(1_000, headersTimeout > 0 ? headersTimeout : 1_000),
          keepAliveTimeout: options.keepAliveTimeoutMs ?? timeoutDefaults.keepAliveTimeoutMs,
        },
      },
      (info: AddressInfo) => {
        const shown = info.family === "IPv6" || host.includes(":") ? `[${info.address}]` : host;
        resolve({
          url: `http://${shown}:${info.port}`,
          port: info.port,
          close: () =>
            new Promise<void>((done) => {
              if ("closeAllConnections" in server) server.closeAllConnections();
              server.close(() => done());
            }),
        });
      },
    );
    server.once("error", reject);
  });
}
