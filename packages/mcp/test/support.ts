import type { TransportServerInfo } from "@junction/mcp";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { createDemoServer } from "./fixtures/demo-server.mjs";

/** An in-process demo server: each (re)connect gets a fresh server over a linked in-memory pair. */
export function inProcessServer(
  options: { name?: string; onCancelled?: () => void } = {},
): TransportServerInfo {
  return {
    transport: "custom",
    ...(options.name === undefined ? {} : { name: options.name }),
    createTransport: () => {
      const [client, server] = InMemoryTransport.createLinkedPair();
      void createDemoServer(options).connect(server);
      return client;
    },
  };
}

/** The path of the stdio fixture. */
export const stdioFixture = new URL("./fixtures/stdio-server.mjs", import.meta.url).pathname;
