import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A request the local server received. */
export interface SeenRequest {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
}

/** A local HTTP server on 127.0.0.1 whose routes the test defines. */
export interface LocalServer {
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  /** The port. */
  readonly port: number;
  /** Every request received, in order. */
  readonly requests: SeenRequest[];
  /** Stops the server, cutting open connections. */
  close(): Promise<void>;
}

/**
 * Starts a server on 127.0.0.1 (a free port); `routes[path]` answers a request for `path`, anything else
 * is a 404.
 */
export async function startServer(
  routes: Record<string, (response: ServerResponse, request: SeenRequest) => void>,
): Promise<LocalServer> {
  const requests: SeenRequest[] = [];
  const server: Server = createServer((incoming, response) => {
    const seen = { path: incoming.url ?? "/", headers: incoming.headers };
    requests.push(seen);
    const route = routes[seen.path];
    if (route === undefined) {
      response.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    route(response, seen);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
