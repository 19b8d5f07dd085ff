import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { createEndpointHandler, type LoggerTransport } from "@restatedev/restate-sdk";

/** Options of {@link serveJunction}. */
export interface ServeJunctionOptions {
  /** The workflows and services to serve (`junctionWorkflow(...)`, your own). */
  readonly services: Parameters<typeof createEndpointHandler>[0]["services"];
  /** The port (default 0: a free port, see the returned `port`). */
  readonly port?: number | undefined;
  /** The interface to bind (default `127.0.0.1`: loopback only; the Restate server calls it). */
  readonly host?: string | undefined;
  /**
   * Where the Restate SDK writes its log lines (one per invocation start and end, warnings). Default: the
   * console; pass `() => {}` to silence it, or forward to your logger.
   */
  readonly logger?: LoggerTransport | undefined;
}

/** A running endpoint. */
export interface JunctionEndpoint {
  /** The port it listens on. */
  readonly port: number;
  /** The URL to register with the Restate server (`POST /deployments { uri }` on its admin API). */
  readonly url: string;
  /** Stops listening and closes open connections. */
  close(): Promise<void>;
}

/**
 * Serves Restate services on an HTTP/2 endpoint bound to loopback by default (the SDK's own `serve()`
 * binds every interface). Register `url` with the Restate server, which then invokes the handlers.
 *
 * @param options - the services, port and host
 * @example
 * ```ts
 * const endpoint = await serveJunction({ services: [junctionWorkflow({ target: agent })], port: 9080 });
 * ```
 */
export function serveJunction(options: ServeJunctionOptions): Promise<JunctionEndpoint> {
  const host = options.host ?? "127.0.0.1";
  const server = http2.createServer(
    createEndpointHandler({
      services: options.services,
      ...(options.logger === undefined ? {} : { logger: options.logger }),
    }),
  );
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on("session", (session) => {
    sessions.add(session);
    session.on("close", () => sessions.delete(session));
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      const port = (server.address() as AddressInfo).port;
      resolve({
        port,
        url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
        close: () =>
          new Promise<void>((done) => {
            for (const session of sessions) session.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}
