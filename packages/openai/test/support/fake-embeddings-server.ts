/**
 * An OpenAI-compatible `POST /v1/embeddings` server for the embedder tests, on 127.0.0.1 with a random
 * port. Vectors are derived from the text ({@link vectorFor}), so tests know what each document must get;
 * every request is recorded; a chosen request can fail or hang (for failure and cancellation tests).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { getDefaultLogger, MemoryLogger, setDefaultLogger } from "@junction/core";
import { afterEach, beforeEach, vi } from "vitest";
import { stubOpenAIEnv } from "./harness.js";

/** The fake key the embedder tests use; assertions check it never leaks. */
export const EMBED_TEST_KEY = "sk-embed-0123456789abcdefSECRET";

/** A recorded `/v1/embeddings` request. */
export interface EmbeddingsRequest {
  readonly path: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: {
    readonly model?: string;
    readonly input?: string | string[];
    readonly dimensions?: number;
    readonly encoding_format?: string;
  };
}

/** What to do with one request (by its 0-based number). */
export type EmbeddingsBehaviour = { kind: "fail"; status: number; message?: string } | { kind: "hang" };

/** The running server. */
export interface FakeEmbeddingsServer {
  readonly baseURL: string;
  /** Every request, in order. */
  readonly requests: EmbeddingsRequest[];
  /** Makes request number `index` (0-based, counting every request) fail or hang. */
  on(index: number, behaviour: EmbeddingsBehaviour): void;
  /** Resolves when a hanging request's client went away. */
  readonly nextDisconnect: () => Promise<void>;
  /** Answer in reverse `data` order (each item keeps its `index`). */
  reverseOrder: boolean;
  close(): Promise<void>;
}

/** The deterministic vector the server returns for `text`: `dimensions` numbers (default 3) from its characters. */
export function vectorFor(text: string, dimensions = 3): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (let index = 0; index < text.length; index += 1) {
    const slot = index % dimensions;
    vector[slot] = ((vector[slot] ?? 0) * 31 + text.charCodeAt(index)) % 1000;
  }
  return vector.map((value) => value / 1000 + text.length);
}

/** The tokens the server reports for `text`: one per whitespace-separated word (at least 1). */
export function tokensFor(text: string): number {
  return Math.max(1, text.split(/\s+/).filter(Boolean).length);
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    request.on("data", (part: Buffer) => parts.push(part));
    request.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
    request.on("error", reject);
  });
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json", "x-should-retry": "false" });
  response.end(JSON.stringify(body));
}

/** Starts the server. */
export async function startFakeEmbeddingsServer(): Promise<FakeEmbeddingsServer> {
  const requests: EmbeddingsRequest[] = [];
  const behaviours = new Map<number, EmbeddingsBehaviour>();
  let waiters: (() => void)[] = [];
  const state = { reverseOrder: false };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const text = await readBody(request);
    const body = JSON.parse(text === "" ? "{}" : text) as EmbeddingsRequest["body"];
    const number = requests.length;
    requests.push({ path: request.url ?? "", headers: { ...request.headers }, body });
    if (request.method !== "POST" || request.url !== "/v1/embeddings") {
      sendJson(response, 404, { error: { message: `no route ${request.method} ${request.url}` } });
      return;
    }
    const behaviour = behaviours.get(number);
    if (behaviour?.kind === "hang") {
      response.on("close", () => {
        const current = waiters;
        waiters = [];
        for (const waiter of current) waiter();
      });
      return;
    }
    if (behaviour?.kind === "fail") {
      sendJson(response, behaviour.status, {
        error: { message: behaviour.message ?? `error ${behaviour.status}`, type: "server_error" },
      });
      return;
    }
    const inputs = typeof body.input === "string" ? [body.input] : (body.input ?? []);
    const data = inputs.map((input, index) => ({
      object: "embedding",
      index,
      embedding: vectorFor(input, body.dimensions),
    }));
    const tokens = inputs.reduce((sum, input) => sum + tokensFor(input), 0);
    sendJson(response, 200, {
      object: "list",
      model: `${body.model ?? "unknown"}-served`,
      data: state.reverseOrder ? data.reverse() : data,
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    });
  };

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) =>
      sendJson(response, 500, { error: { message: String(error) } }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    on(index, behaviour) {
      behaviours.set(index, behaviour);
    },
    nextDisconnect: () => new Promise<void>((resolve) => waiters.push(resolve)),
    get reverseOrder() {
      return state.reverseOrder;
    },
    set reverseOrder(value: boolean) {
      state.reverseOrder = value;
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
}

/** What each embedder test gets. */
export interface EmbeddingsHarness {
  server: FakeEmbeddingsServer;
  logger: MemoryLogger;
}

/**
 * A fresh server per test, OPENAI_API_KEY set to {@link EMBED_TEST_KEY}, the other OPENAI_* variables
 * cleared, and the default logger (where the SDK reports) captured.
 */
export function useEmbeddingsHarness(): EmbeddingsHarness {
  const harness = {} as EmbeddingsHarness;
  let previous = getDefaultLogger();
  beforeEach(async () => {
    stubOpenAIEnv(EMBED_TEST_KEY);
    harness.server = await startFakeEmbeddingsServer();
    harness.logger = new MemoryLogger();
    previous = getDefaultLogger();
    setDefaultLogger(new MemoryLogger());
  });
  afterEach(async () => {
    setDefaultLogger(previous);
    vi.unstubAllEnvs();
    await harness.server.close();
  });
  return harness;
}
