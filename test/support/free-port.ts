import { createServer } from "node:net";

/**
 * A free TCP port on 127.0.0.1, for a server a test harness starts (a real Postgres, the Restate
 * server). The port is released before it is returned, so start the server right after.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
