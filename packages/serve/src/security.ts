import { timingSafeEqual } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import { HttpError } from "./http-error.js";
import { checkDepth } from "./json-depth.js";

/**
 * The server's guards, applied to every route (including `/mcp`, the OpenAI-compatible routes and
 * routes added with `routes`): the Host and Origin checks against DNS rebinding, the bearer token,
 * and the request body limit.
 */

/** Who may call the server. */
export interface AuthOptions {
  /**
   * The bearer token every request must carry (`Authorization: Bearer <token>`). Default: the
   * `JUNCTION_API_KEY` environment variable; no token when it is unset or empty.
   */
  readonly token?: string | undefined;
  /**
   * Your own check, run after the token check (or instead of it when there is no token): return
   * `true` to let the request through. Use it for JWTs, sessions or an allow-list.
   */
  readonly verify?: ((request: Request) => boolean | Promise<boolean>) | undefined;
}

/** The default allowed Host names: the loopback names. */
export const loopbackHosts: readonly string[] = ["localhost", "127.0.0.1", "[::1]"];

/** The host name of a Host header (`"example.com:8080"` → `"example.com"`, `"[::1]:80"` → `"[::1]"`). */
export function hostName(host: string): string {
  const trimmed = host.trim().toLowerCase();
  if (trimmed.startsWith("[")) {
    const end = trimmed.indexOf("]");
    return end === -1 ? trimmed : trimmed.slice(0, end + 1);
  }
  const colon = trimmed.indexOf(":");
  return colon === -1 ? trimmed : trimmed.slice(0, colon);
}

/** A check on a request that throws an {@link HttpError} to refuse it; a promise only when it must wait. */
export type RequestCheck = (c: Context) => void | Promise<void>;

/**
 * Refuses a request whose Host is not allowed (a page on another site that resolves its name to
 * 127.0.0.1 sends its own name as Host), and a browser request whose Origin is neither an allowed
 * host nor a configured CORS origin.
 *
 * @param allowedHosts - host names (no port), or `"*"` to accept any Host (behind a proxy that checks it)
 * @param corsOrigins - origins allowed to call from a browser (exact `scheme://host[:port]`), or `"*"`
 */
export function hostCheck(
  allowedHosts: readonly string[] | "*",
  corsOrigins: readonly string[] | "*",
): (c: Context) => void {
  const hosts = allowedHosts === "*" ? undefined : new Set(allowedHosts.map((host) => host.toLowerCase()));
  return (c) => {
    const headers = c.req.raw.headers;
    if (hosts !== undefined) {
      // Node always has a Host header; a Request built by hand (app.request in tests) has its URL.
      const host = headers.get("host") ?? new URL(c.req.url).host;
      if (!hosts.has(hostName(host))) {
        throw new HttpError(
          403,
          "HostNotAllowed",
          `the Host header "${host}" is not allowed. Allowed hosts: ${[...hosts].join(", ")} (set allowedHosts / --allowed-host when serving under another name).`,
        );
      }
    }
    const origin = headers.get("origin");
    if (origin !== null && corsOrigins !== "*" && !corsOrigins.includes(origin)) {
      let name: string | undefined;
      try {
        name = hostName(new URL(origin).host);
      } catch {
        name = undefined;
      }
      if (name === undefined || hosts === undefined || !hosts.has(name)) {
        throw new HttpError(
          403,
          "OriginNotAllowed",
          `requests from the origin "${origin}" are not allowed. Add it to cors.origins to call the server from that site.`,
        );
      }
    }
  };
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

const bearer = /^Bearer\s+(.+)$/i;

/**
 * Checks the bearer token and the custom `verify` hook (the only part that may wait), then refuses a
 * declared body over `maxBytes` with 413 (a body without Content-Length is limited while it is read,
 * by {@link readJSON}). CORS preflight requests (`OPTIONS` with `Access-Control-Request-Method`) pass,
 * since browsers send them without credentials.
 */
export function accessCheck(auth: AuthOptions, maxBytes: number): RequestCheck {
  const token = auth.token === "" ? undefined : auth.token;
  const verify = auth.verify;
  return (c) => {
    const headers = c.req.raw.headers;
    if (c.req.method === "OPTIONS" && headers.get("access-control-request-method") !== null) return;
    if (token !== undefined) {
      const match = bearer.exec(headers.get("authorization") ?? "");
      if (match === null || !sameToken((match[1] ?? "").trim(), token)) {
        c.header("WWW-Authenticate", 'Bearer realm="junction"');
        throw new HttpError(
          401,
          "Unauthorized",
          match === null
            ? "this server needs a bearer token: send `Authorization: Bearer <JUNCTION_API_KEY>`."
            : "the bearer token is not valid.",
        );
      }
    }
    if (verify === undefined) return checkLength(headers, maxBytes);
    return Promise.resolve(verify(c.req.raw)).then((allowed) => {
      if (!allowed) {
        throw new HttpError(401, "Unauthorized", "the request was refused by the server's auth check.");
      }
      checkLength(headers, maxBytes);
    });
  };
}

function checkLength(headers: Headers, maxBytes: number): void {
  const length = headers.get("content-length");
  if (length !== null && Number(length) > maxBytes) throw tooLarge(maxBytes);
}

/**
 * One middleware running the checks in order. It is synchronous (no `await` between the checks and the
 * route) unless a check returns a promise: the guards cost next to nothing per request.
 */
export function guard(...checks: readonly RequestCheck[]): MiddlewareHandler {
  return (c, next) => {
    for (let index = 0; index < checks.length; index += 1) {
      const pending = checks[index]!(c);
      if (pending !== undefined) {
        const rest = checks.slice(index + 1);
        return pending.then(() => guard(...rest)(c, next));
      }
    }
    return next();
  };
}

/** The 413 error. */
export function tooLarge(maxBytes: number): HttpError {
  return new HttpError(
    413,
    "PayloadTooLarge",
    `the request body is larger than ${maxBytes} bytes (the server's bodyLimit).`,
  );
}

const jsonType = /^application\/(.+\+)?json\b/i;

/**
 * Reads a JSON body with a size limit, answering 400 with the parser's message for bad JSON or a body
 * nested deeper than 64 levels (`maxRequestDepth`), and 415 for another content type.
 */
export async function readJSON(request: Request, maxBytes: number): Promise<unknown> {
  const type = request.headers.get("content-type");
  if (type !== null && type !== "application/json" && !jsonType.test(type)) {
    throw new HttpError(
      415,
      "UnsupportedMediaType",
      `send JSON (Content-Type: application/json), not "${type}".`,
    );
  }
  const text = await readText(request, maxBytes);
  if (text.trim() === "") return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new HttpError(
      400,
      "InvalidJSON",
      `the request body is not valid JSON: ${(error as Error).message}`,
    );
  }
  checkDepth(body, "the request body");
  return body;
}

async function readText(request: Request, maxBytes: number): Promise<string> {
  // With a Content-Length (checked against the limit by accessCheck; Node reads exactly that many bytes),
  // `text()` is the fast path: @hono/node-server reads the socket into one buffer, where touching
  // `request.body` would first build a full Web Request and stream (several times slower per request).
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) <= maxBytes) return request.text();
  if (request.body === null) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
