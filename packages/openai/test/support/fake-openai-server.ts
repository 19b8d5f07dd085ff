/**
 * A small OpenAI-compatible HTTP server for tests: `POST /v1/chat/completions` in JSON and SSE, on
 * 127.0.0.1 with a random port. Each test scripts the responses it wants (in order) and reads back the
 * requests the server received, so tests exercise the real `openai` SDK over real HTTP.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export {
  type CompletionOptions,
  CREATED,
  chunk,
  completion,
  errorReply,
  textStream,
  usage,
  usageChunk,
} from "./openai-fixtures.js";

/** A request the server received. */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The parsed JSON body (`undefined` when the body was empty or not JSON). */
  readonly body: Record<string, unknown>;
}

/** A JSON reply with a status (200 by default). */
export interface JsonReply {
  readonly kind: "json";
  readonly body: unknown;
  readonly status?: number;
  /** Milliseconds to wait before answering (for abort tests). */
  readonly delayMs?: number;
  readonly headers?: Readonly<Record<string, string>>;
}

/** An SSE stream of `data:` events, then `data: [DONE]` unless `hang` is set. */
export interface StreamReply {
  readonly kind: "stream";
  /** Each element is sent as one `data: <json>` event. */
  readonly events: readonly unknown[];
  /** Milliseconds to wait before each event (default 0). */
  readonly delayMs?: number;
  /** After the events, keep the connection open until the client goes away (for abort tests). */
  readonly hang?: boolean;
}

/** An error status with an OpenAI-style error body. */
export interface ErrorReply {
  readonly kind: "error";
  readonly status: number;
  readonly message?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** One scripted response. */
export type ScriptedReply = JsonReply | StreamReply | ErrorReply;

/** The running server. */
export interface FakeOpenAIServer {
  /** The base URL to give the SDK, e.g. `http://127.0.0.1:51234/v1`. */
  readonly baseURL: string;
  /** Every request received, in order. */
  readonly requests: RecordedRequest[];
  /** How many responses were cut short because the client disconnected. */
  readonly clientDisconnects: () => number;
  /** Resolves when the next client disconnect during a response happens. */
  readonly nextDisconnect: () => Promise<void>;
  /** Appends replies to the script; each request takes the next one. */
  enqueue(...replies: ScriptedReply[]): void;
  /** Stops the server (drops open connections). */
  close(): Promise<void>;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    request.on("data", (part: Buffer) => parts.push(part));
    request.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
    request.on("error", reject);
  });
}

function parseJson(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(text);
}

/**
 * Starts a fake OpenAI-compatible server on 127.0.0.1 with a random port.
 *
 * A request with nothing scripted gets a 500 with `x-should-retry: false`, which makes the test fail
 * with a clear message instead of hanging.
 */
export async function startFakeOpenAIServer(): Promise<FakeOpenAIServer> {
  const script: ScriptedReply[] = [];
  const requests: RecordedRequest[] = [];
  let disconnects = 0;
  let disconnectWaiters: (() => void)[] = [];

  const onDisconnect = (): void => {
    disconnects += 1;
    const waiters = disconnectWaiters;
    disconnectWaiters = [];
    for (const waiter of waiters) waiter();
  };

  /** Waits `ms`; false when the client went away meanwhile. */
  const waitUnlessGone = (response: ServerResponse, ms: number): Promise<boolean> =>
    new Promise((resolve) => {
      const timer = setTimeout(() => resolve(true), ms);
      response.on("close", () => {
        if (response.writableFinished) return;
        clearTimeout(timer);
        onDisconnect();
        resolve(false);
      });
    });

  const stream = async (response: ServerResponse, reply: StreamReply): Promise<void> => {
    let gone = false;
    response.on("close", () => {
      if (!response.writableFinished) {
        gone = true;
        onDisconnect();
      }
    });
    response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    response.flushHeaders();
    for (const event of reply.events) {
      if (reply.delayMs !== undefined && reply.delayMs > 0) await sleep(reply.delayMs);
      if (gone) return;
      response.write(`data: ${JSON.stringify(event)}\n\n`);
    }
    if (reply.hang === true) return; // stays open until the client disconnects or the server closes
    response.end("data: [DONE]\n\n");
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const text = await readBody(request);
    requests.push({
      method: request.method ?? "",
      path: request.url ?? "",
      headers: { ...request.headers },
      body: parseJson(text),
    });
    if (request.method !== "POST" || request.url !== "/v1/chat/completions") {
      sendJson(response, 404, {
        error: { message: `no route ${request.method} ${request.url}`, type: "not_found" },
      });
      return;
    }
    const reply = script.shift();
    if (reply === undefined) {
      sendJson(
        response,
        500,
        { error: { message: "fake server: no reply scripted for this request", type: "test_error" } },
        { "x-should-retry": "false" },
      );
      return;
    }
    if (reply.kind === "json") {
      if (reply.delayMs !== undefined && !(await waitUnlessGone(response, reply.delayMs))) return;
      sendJson(response, reply.status ?? 200, reply.body, { ...(reply.headers ?? {}) });
    } else if (reply.kind === "error") {
      sendJson(
        response,
        reply.status,
        {
          error: {
            message: reply.message ?? `error ${reply.status}`,
            type: "server_error",
            code: null,
            param: null,
          },
        },
        { ...(reply.headers ?? {}) },
      );
    } else await stream(response, reply);
  };

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) sendJson(response, 500, { error: { message: String(error) } });
      else response.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    clientDisconnects: () => disconnects,
    nextDisconnect: () => new Promise<void>((resolve) => disconnectWaiters.push(resolve)),
    enqueue(...replies) {
      script.push(...replies);
    },
    close() {
      if (!server.listening) return Promise.resolve();
      server.closeAllConnections();
      return new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
}
