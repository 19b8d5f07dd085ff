import { defineComponent, type Logger } from "@junction/core";
import { ByteStream } from "@junction/documents";
import { z } from "zod";
import { FetchError } from "../errors.js";
import { componentLabel } from "../sources/convert-sources.js";
import { byteStreamListSchema } from "../sources/socket-schemas.js";
import { isKnownEncoding } from "../sources/source-params.js";
import { isValidRange, parseRanges } from "./address-policy.js";
import { type FetchUrlOptions, fetchUrl } from "./fetch-url.js";
import { linkContentFetcherSerializer } from "./link-content-fetcher-serializer.js";
import { type ResolveHost, systemResolveHost } from "./resolve-host.js";

const type = "junction.LinkContentFetcher";

/** The user agent sent by default. */
export const defaultUserAgent = "junction/LinkContentFetcher";

/** How many URLs are fetched at the same time. */
const concurrency = 8;

const paramsSchema = z.object({
  /** Allow loopback, private, link-local and other non-public addresses (trusted URLs only). */
  allowPrivateAddresses: z.boolean().default(false),
  /** Non-public ranges allowed anyway, as CIDR (`"10.1.2.0/24"`) or single addresses. */
  allowedAddressRanges: z
    .array(
      z.string().refine(isValidRange, { message: 'not a CIDR range or IP address (e.g. "10.1.2.0/24")' }),
    )
    .default([]),
  /** Milliseconds for one attempt at one URL, redirects and body included (default 10 s). */
  timeout: z.number().int().positive().default(10_000),
  /** The largest response body accepted, in bytes (default 10 MB). */
  maxBytes: z
    .number()
    .int()
    .positive()
    .default(10 * 1024 * 1024),
  /** The most redirects followed for one URL (default 5). */
  maxRedirects: z.number().int().min(0).default(5),
  /** Throw on the first URL that fails (default, as Haystack); `false` logs a warning and skips it. */
  raiseOnFailure: z.boolean().default(true),
  /** User agents; each retry uses the next one. */
  userAgents: z.array(z.string().min(1)).min(1).default([defaultUserAgent]),
  /** Retries after a network error, a timeout, HTTP 429 or 5xx (default 2, as Haystack). */
  retryAttempts: z.number().int().min(0).default(2),
  /** Extra request headers. */
  requestHeaders: z.record(z.string(), z.string()).default({}),
  /** Resolves host names (default: the system resolver). Registered by name in pipeline documents. */
  resolveHost: z.custom<ResolveHost>((value) => typeof value === "function").optional(),
});

type FetcherParams = z.output<typeof paramsSchema>;

/**
 * Fetches URLs into `ByteStream`s (meta `url` and `content_type`, `mimeType` from the `Content-Type`
 * header, `encoding` from its charset when given), to connect to a converter's `sources` — Haystack's `LinkContentFetcher`, made safe to point at
 * user-given URLs: only http(s); the host is resolved and every address checked (loopback, private,
 * link-local such as 169.254.169.254, unique-local, unspecified and IPv4-mapped addresses are refused
 * unless `allowPrivateAddresses`), the connection goes to the checked address, every redirect is checked
 * again, and bodies are capped at `maxBytes` while streaming.
 *
 * @example
 * ```ts
 * const fetcher = new LinkContentFetcher({ timeout: 5_000 });
 * const { streams } = await fetcher.run({ urls: ["https://example.com/"] });
 * streams[0].meta; // { content_type: "text/html", url: "https://example.com/" }
 * ```
 */
export const LinkContentFetcher = defineComponent({
  type,
  description: "Fetches the content of URLs as ByteStreams (refusing private addresses by default).",
  params: paramsSchema,
  inputs: { urls: z.array(z.string()) },
  outputs: { streams: byteStreamListSchema },
  serializer: linkContentFetcherSerializer,
  run: async ({ urls }, { params, logger, signal, componentName }) => ({
    streams: await fetchAll(urls, params, componentLabel(type, componentName), logger, signal),
  }),
});

/** A `LinkContentFetcher` instance. */
export type LinkContentFetcher = InstanceType<typeof LinkContentFetcher>;

async function fetchAll(
  urls: readonly string[],
  params: FetcherParams,
  label: string,
  logger: Logger,
  runSignal: AbortSignal | undefined,
): Promise<ByteStream[]> {
  const stop = new AbortController();
  const signal = runSignal === undefined ? stop.signal : AbortSignal.any([runSignal, stop.signal]);
  const results: (ByteStream | undefined)[] = new Array(urls.length);
  let next = 0;
  const worker = async () => {
    while (next < urls.length && !signal.aborted) {
      const index = next++;
      const url = urls[index] as string;
      try {
        results[index] = await fetchWithRetries(url, params, label, signal);
      } catch (error) {
        if (signal.aborted || params.raiseOnFailure || !(error instanceof FetchError)) {
          stop.abort(error);
          throw error;
        }
        logger.warn(`${error.message} Skipped it (set raiseOnFailure: true to make this an error).`, {
          component: label,
          url,
          reason: error.reason,
        });
      }
    }
  };
  const settled = await Promise.allSettled(
    Array.from({ length: Math.min(concurrency, urls.length) }, worker),
  );
  runSignal?.throwIfAborted();
  const failed = settled.find((result) => result.status === "rejected");
  if (failed !== undefined) throw (failed as PromiseRejectedResult).reason;
  return results.filter((stream) => stream !== undefined);
}

async function fetchWithRetries(
  url: string,
  params: FetcherParams,
  label: string,
  signal: AbortSignal,
): Promise<ByteStream> {
  const policy = {
    allowPrivateAddresses: params.allowPrivateAddresses,
    allowedRanges: parseRanges(params.allowedAddressRanges),
  };
  for (let attempt = 0; ; attempt++) {
    const options: FetchUrlOptions = {
      policy,
      resolveHost: params.resolveHost ?? systemResolveHost,
      maxBytes: params.maxBytes,
      maxRedirects: params.maxRedirects,
      timeout: params.timeout,
      headers: {
        accept: "*/*",
        "accept-encoding": "identity",
        ...params.requestHeaders,
        "user-agent": params.userAgents[attempt % params.userAgents.length] as string,
      },
      signal,
      label,
    };
    try {
      const content = await fetchUrl(url, options);
      const contentType = content.contentType ?? "application/octet-stream";
      const meta: Record<string, unknown> = { content_type: contentType, url };
      // The converters decode with meta.encoding, so a page served as ISO-8859-1 is read as such.
      if (content.charset !== undefined && isKnownEncoding(content.charset)) meta.encoding = content.charset;
      return new ByteStream(content.data, {
        mimeType: contentType,
        meta,
      });
    } catch (error) {
      if (attempt >= params.retryAttempts || signal.aborted || !retryable(error)) throw error;
      await sleep(Math.min(1000 * 2 ** attempt, 10_000), signal);
    }
  }
}

function retryable(error: unknown): boolean {
  if (!(error instanceof FetchError)) return false;
  if (error.reason === "network" || error.reason === "timeout") return true;
  return (
    error.reason === "http_status" &&
    error.status !== undefined &&
    (error.status === 429 || error.status >= 500)
  );
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
