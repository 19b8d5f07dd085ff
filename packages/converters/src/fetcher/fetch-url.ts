import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { quoteExcerpt } from "@junction/core";
import { FetchError, type FetchFailureReason } from "../errors.js";
import { type AddressPolicy, refusedAddressReason } from "./address-policy.js";
import type { ResolvedAddress, ResolveHost } from "./resolve-host.js";

/** What {@link fetchUrl} needs besides the URL. */
export interface FetchUrlOptions {
  /** Which addresses may be connected to. */
  readonly policy: AddressPolicy;
  /** Resolves host names (checked, then connected to: no second lookup). */
  readonly resolveHost: ResolveHost;
  /** The most response bytes accepted. */
  readonly maxBytes: number;
  /** The most redirects followed. */
  readonly maxRedirects: number;
  /** Milliseconds for the whole fetch, redirects and body included. */
  readonly timeout: number;
  /** Request headers. */
  readonly headers: Readonly<Record<string, string>>;
  /** The run's signal. */
  readonly signal: AbortSignal | undefined;
  /** The component as messages name it. */
  readonly label: string;
}

/** A fetched response body. */
export interface FetchedContent {
  /** The body. */
  readonly data: Uint8Array;
  /** The media type from `Content-Type`, lowercased, without parameters. */
  readonly contentType: string | undefined;
  /** The `charset` parameter of `Content-Type`, lowercased, when given. */
  readonly charset: string | undefined;
  /** The URL the body came from (after redirects). */
  readonly finalUrl: string;
}

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

/**
 * GETs one URL safely: only http(s); the host is resolved once and every resolved address is checked
 * against the policy, then the connection goes to a checked address (no DNS-rebinding window); each
 * redirect is checked the same way, at most `maxRedirects` of them; the body is read up to `maxBytes`;
 * `timeout` and the run's signal abort everything.
 *
 * @throws FetchError naming the URL and the reason (the run's abort reason when the run was aborted)
 */
export async function fetchUrl(url: string, options: FetchUrlOptions): Promise<FetchedContent> {
  const timeoutSignal = AbortSignal.timeout(options.timeout);
  const signal =
    options.signal === undefined ? timeoutSignal : AbortSignal.any([options.signal, timeoutSignal]);
  let current = parseUrl(url, url, options.label);
  try {
    for (let redirects = 0; ; redirects++) {
      const response = await request(current, url, signal, options);
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (redirectStatuses.has(status) && location !== undefined) {
        response.destroy();
        if (redirects >= options.maxRedirects) {
          throw fetchError(
            options.label,
            url,
            "redirects",
            `redirected more than maxRedirects (${options.maxRedirects}) times`,
          );
        }
        current = parseUrl(location, url, options.label, current);
        continue;
      }
      if (status < 200 || status >= 300) {
        response.destroy();
        throw fetchError(options.label, url, "http_status", `answered HTTP ${status}`, { status });
      }
      const data = await readBody(response, url, signal, options);
      const [mediaType, ...parameters] = (response.headers["content-type"] ?? "").split(";");
      const contentType = mediaType?.trim().toLowerCase();
      const charset = /^\s*charset\s*=\s*"?([^";\s]+)/i.exec(
        parameters.find((p) => /^\s*charset\s*=/i.test(p)) ?? "",
      )?.[1];
      return {
        data,
        contentType: contentType === "" ? undefined : contentType,
        charset: charset?.toLowerCase(),
        finalUrl: current.href,
      };
    }
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    if (timeoutSignal.aborted && !(error instanceof FetchError && error.reason !== "network")) {
      throw fetchError(options.label, url, "timeout", `took longer than timeout (${options.timeout} ms)`, {
        cause: error,
      });
    }
    throw error;
  }
}

function fetchError(
  label: string,
  url: string,
  reason: FetchFailureReason,
  why: string,
  extra: { status?: number; cause?: unknown } = {},
): FetchError {
  return new FetchError(`${label}: ${quoteExcerpt(url)} ${why}.`, { url, reason, ...extra });
}

function parseUrl(text: string, requested: string, label: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(text, base);
  } catch (error) {
    throw fetchError(label, requested, "invalid_url", `is not a valid URL (${quoteExcerpt(text)})`, {
      cause: error,
    });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    const via = base === undefined ? "" : ` (redirected to ${quoteExcerpt(url.href)})`;
    throw fetchError(
      label,
      requested,
      "scheme",
      `uses the scheme "${url.protocol}"${via}; only http: and https: are fetched`,
    );
  }
  return url;
}

/** Resolves and checks a host; the addresses returned are the ones connected to. */
async function checkedAddresses(
  hostname: string,
  url: URL,
  requested: string,
  signal: AbortSignal,
  options: FetchUrlOptions,
): Promise<readonly ResolvedAddress[]> {
  const literal = isIP(hostname);
  let addresses: readonly ResolvedAddress[];
  if (literal !== 0) addresses = [{ address: hostname, family: literal === 6 ? 6 : 4 }];
  else {
    try {
      addresses = await untilAborted(options.resolveHost(hostname), signal);
    } catch (error) {
      if (signal.aborted) throw error;
      throw fetchError(
        options.label,
        requested,
        "dns",
        `could not be resolved (${quoteExcerpt(hostname)}: ${(error as Error).message})`,
        { cause: error },
      );
    }
    if (addresses.length === 0) {
      throw fetchError(
        options.label,
        requested,
        "dns",
        `could not be resolved (${quoteExcerpt(hostname)} has no address)`,
      );
    }
  }
  for (const { address } of addresses) {
    const refused = refusedAddressReason(address, options.policy);
    if (refused !== undefined) {
      const via = url.href === requested ? "" : ` (redirected to ${quoteExcerpt(url.href)})`;
      throw fetchError(
        options.label,
        requested,
        "blocked_address",
        `was refused${via}: ${quoteExcerpt(hostname)} resolves to ${refused}. Only public addresses are fetched; set allowPrivateAddresses: true, or list the range in allowedAddressRanges, for trusted internal hosts`,
      );
    }
  }
  return addresses;
}

async function request(
  url: URL,
  requested: string,
  signal: AbortSignal,
  options: FetchUrlOptions,
): Promise<IncomingMessage> {
  const hostname = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  // Checked before connecting; the connection's lookup hands these very addresses to the socket.
  const addresses = await checkedAddresses(hostname, url, requested, signal, options);
  const pinned: LookupFunction = (_host, lookupOptions, callback) => {
    const first = addresses[0] as ResolvedAddress;
    if (lookupOptions.all === true)
      callback(
        null,
        addresses.map(({ address, family }) => ({ address, family })),
      );
    else callback(null, first.address, first.family);
  };
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    // `agent: false`: a fresh connection, never a pooled socket another fetcher (with another policy) opened.
    const outgoing = client.request(
      url,
      { method: "GET", headers: options.headers, agent: false, lookup: pinned, signal },
      resolve,
    );
    outgoing.on("error", (error) =>
      reject(
        signal.aborted
          ? error
          : fetchError(options.label, requested, "network", `could not be fetched (${error.message})`, {
              cause: error,
            }),
      ),
    );
    outgoing.end();
  });
}

async function readBody(
  response: IncomingMessage,
  requested: string,
  signal: AbortSignal,
  options: FetchUrlOptions,
): Promise<Uint8Array> {
  const tooLarge = (size: string) =>
    fetchError(
      options.label,
      requested,
      "too_large",
      `sent ${size}, over maxBytes (${options.maxBytes}). Raise the maxBytes option if the source is trusted`,
    );
  const declared = Number(response.headers["content-length"]);
  if (Number.isFinite(declared) && declared > options.maxBytes) {
    response.destroy();
    throw tooLarge(`${declared} bytes`);
  }
  const onAbort = () => response.destroy(signal.reason);
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    const chunks: Buffer[] = [];
    let length = 0;
    for await (const chunk of response as AsyncIterable<Buffer>) {
      length += chunk.length;
      if (length > options.maxBytes) {
        response.destroy();
        throw tooLarge(`more than ${options.maxBytes} bytes`);
      }
      chunks.push(chunk);
    }
    return new Uint8Array(Buffer.concat(chunks, length));
  } catch (error) {
    if (error instanceof FetchError || signal.aborted) throw error;
    throw fetchError(
      options.label,
      requested,
      "network",
      `broke off while reading (${(error as Error).message})`,
      { cause: error },
    );
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}

/** `promise`, or a rejection with the signal's reason as soon as it aborts (a DNS lookup cannot be cancelled). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
