import { FetchError, HTMLToDocument, LinkContentFetcher, type ResolveHost } from "@junction/converters";
import { MemoryLogger } from "@junction/core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type LocalServer, startServer } from "./support/local-server.js";

let server: LocalServer;
let failuresLeft = 0;

beforeAll(async () => {
  server = await startServer({
    "/page": (response) =>
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end("<p>Hi</p>"),
    "/data.json": (response) =>
      response.writeHead(200, { "content-type": "application/json" }).end('{"a":1}'),
    "/plain": (response) => response.writeHead(200).end("no content type"),
    "/latin": (response) =>
      response
        .writeHead(200, { "content-type": 'text/html; charset="ISO-8859-1"' })
        .end(Buffer.from("<p>caf\u00e9</p>", "latin1")),
    "/to-private": (response) => response.writeHead(302, { location: "http://10.0.0.1/admin" }).end(),
    "/to-metadata": (response) =>
      response.writeHead(301, { location: "http://169.254.169.254/latest/meta-data/" }).end(),
    "/to-file": (response) => response.writeHead(302, { location: "file:///etc/passwd" }).end(),
    "/to-page": (response) => response.writeHead(307, { location: "/page" }).end(),
    "/loop": (response) => response.writeHead(302, { location: "/loop" }).end(),
    "/big": (response) => {
      response.writeHead(200, { "content-type": "application/octet-stream" });
      for (let index = 0; index < 64; index++) response.write(Buffer.alloc(1024, 120));
      response.end();
    },
    "/big-declared": (response) =>
      response.writeHead(200, { "content-length": "5000" }).end(Buffer.alloc(5000, 121)),
    "/hang": () => {},
    "/flaky": (response) => {
      if (failuresLeft > 0) {
        failuresLeft--;
        response.writeHead(503).end("busy");
      } else response.writeHead(200, { "content-type": "text/plain" }).end("recovered");
    },
  });
});

afterAll(() => server.close());

const trusted = { allowPrivateAddresses: true, retryAttempts: 0 };

/** A resolver for names the tests make up; `docs.test` is the local server's address. */
const fakeDns: ResolveHost = async (hostname) => {
  if (hostname === "docs.test") return [{ address: "127.0.0.1", family: 4 }];
  throw new Error(`ENOTFOUND ${hostname}`);
};

describe("fetching", () => {
  test("returns ByteStreams with url and content_type meta and the mime type from the header", async () => {
    const fetcher = new LinkContentFetcher(trusted);
    const urls = [`${server.origin}/page`, `${server.origin}/data.json`, `${server.origin}/plain`];
    const { streams } = await fetcher.run({ urls });
    expect(streams?.map((stream) => stream.toText())).toEqual(["<p>Hi</p>", '{"a":1}', "no content type"]);
    expect(streams?.map((stream) => stream.meta)).toEqual([
      { content_type: "text/html", url: urls[0], encoding: "utf-8" },
      { content_type: "application/json", url: urls[1] },
      { content_type: "application/octet-stream", url: urls[2] },
    ]);
    expect(streams?.[0]?.mimeType).toBe("text/html");
  });

  test("the charset of Content-Type becomes meta.encoding, so a converter decodes the page with it", async () => {
    const { streams } = await new LinkContentFetcher(trusted).run({ urls: [`${server.origin}/latin`] });
    expect(streams?.[0]?.meta.encoding).toBe("iso-8859-1");
    const { documents } = await new HTMLToDocument().run({ sources: streams ?? [] });
    expect(documents?.[0]?.content).toBe("café");
  });

  test("sends the user agent and follows a same-host redirect", async () => {
    const before = server.requests.length;
    const fetcher = new LinkContentFetcher({ ...trusted, userAgents: ["test-agent/1"] });
    const { streams } = await fetcher.run({ urls: [`${server.origin}/to-page`] });
    expect(streams?.[0]?.toText()).toBe("<p>Hi</p>");
    const seen = server.requests.slice(before);
    expect(seen.map((request) => request.path)).toEqual(["/to-page", "/page"]);
    expect(seen[0]?.headers["user-agent"]).toBe("test-agent/1");
  });
});

describe("SSRF protection (the default refuses non-public addresses)", () => {
  const refused = async (url: string, options: ConstructorParameters<typeof LinkContentFetcher>[0] = {}) => {
    const error = await new LinkContentFetcher({ retryAttempts: 0, ...options })
      .run({ urls: [url] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FetchError);
    return error as FetchError;
  };

  test.each([
    ["127.0.0.1", () => `${server.origin}/page`, "loopback"],
    ["localhost", () => `http://localhost:${server.port}/page`, "loopback"],
    ["[::1]", () => `http://[::1]:${server.port}/page`, "loopback"],
    ["10.x", () => "http://10.1.2.3/", "private"],
    ["192.168.x", () => "http://192.168.0.1/", "private"],
    ["cloud metadata", () => "http://169.254.169.254/latest/meta-data/", "link-local"],
    ["unique-local IPv6", () => "http://[fd00::1]/", "unique-local"],
    ["unspecified", () => "http://0.0.0.0/", "unspecified"],
    ["IPv4-mapped IPv6", () => "http://[::ffff:127.0.0.1]/", "IPv4-mapped"],
    ["decimal 127.0.0.1", () => `http://2130706433:${server.port}/page`, "loopback"],
  ])("refuses %s before connecting", async (_name, url, kind) => {
    const before = server.requests.length;
    const error = await refused(url());
    expect(error.reason).toBe("blocked_address");
    expect(error.message).toContain(kind);
    expect(error.message).toContain("allowPrivateAddresses");
    expect(server.requests.length).toBe(before);
  });

  test.each([
    ["file:///etc/passwd"],
    ["data:text/plain,hi"],
    ["ftp://example.com/x"],
    ["javascript:alert(1)"],
  ])("refuses the scheme of %s", async (url) => {
    const error = await refused(url);
    expect(error.reason).toBe("scheme");
    expect(error.message).toContain("only http: and https: are fetched");
  });

  test("a host that resolves to a private address is refused (every resolved address is checked)", async () => {
    const mixed: ResolveHost = async () => [
      { address: "93.184.215.14", family: 4 },
      { address: "10.0.0.7", family: 4 },
    ];
    const error = await refused("http://mixed.test/", { resolveHost: mixed });
    expect(error.message).toContain('"mixed.test" resolves to 10.0.0.7, a private address');
  });

  test("a redirect from an allowed host to a private address is refused", async () => {
    const allowLocal = { resolveHost: fakeDns, allowedAddressRanges: ["127.0.0.1/32"] };
    const ok = await new LinkContentFetcher({ ...allowLocal, retryAttempts: 0 }).run({
      urls: [`http://docs.test:${server.port}/page`],
    });
    expect(ok.streams?.[0]?.toText()).toBe("<p>Hi</p>");
    const toPrivate = await refused(`http://docs.test:${server.port}/to-private`, allowLocal);
    expect(toPrivate.reason).toBe("blocked_address");
    expect(toPrivate.message).toContain('redirected to "http://10.0.0.1/admin"');
    const toMetadata = await refused(`http://docs.test:${server.port}/to-metadata`, allowLocal);
    expect(toMetadata.message).toContain("169.254.169.254, a link-local address");
    const toFile = await refused(`http://docs.test:${server.port}/to-file`, allowLocal);
    expect(toFile.reason).toBe("scheme");
  });

  test("the host is resolved once and the connection goes to the checked address (no DNS rebinding)", async () => {
    const answers = ["127.0.0.1", "10.9.9.9"];
    const calls: string[] = [];
    const rebinding: ResolveHost = async (hostname) => {
      calls.push(hostname);
      return [{ address: answers[Math.min(calls.length - 1, 1)] as string, family: 4 }];
    };
    const before = server.requests.length;
    const { streams } = await new LinkContentFetcher({
      resolveHost: rebinding,
      allowedAddressRanges: ["127.0.0.1"],
      retryAttempts: 0,
    }).run({ urls: [`http://rebind.test:${server.port}/page`] });
    expect(streams?.[0]?.toText()).toBe("<p>Hi</p>");
    expect(calls).toEqual(["rebind.test"]);
    expect(server.requests[before]?.headers.host).toBe(`rebind.test:${server.port}`);
  });
});

describe("limits and failures", () => {
  test("maxBytes aborts a streamed body and refuses a declared one, naming the URL and the option", async () => {
    const fetcher = new LinkContentFetcher({ ...trusted, maxBytes: 4096 });
    const streamed = await fetcher.run({ urls: [`${server.origin}/big`] }).catch((caught: unknown) => caught);
    expect(streamed).toMatchObject({ reason: "too_large" });
    expect((streamed as Error).message).toContain(
      `"${server.origin}/big" sent more than 4096 bytes, over maxBytes (4096)`,
    );
    const declared = await fetcher
      .run({ urls: [`${server.origin}/big-declared`] })
      .catch((caught: unknown) => caught);
    expect((declared as Error).message).toContain("sent 5000 bytes, over maxBytes (4096)");
  });

  test("timeout: a server that never answers fails after timeout ms, naming the URL", async () => {
    const started = Date.now();
    const error = await new LinkContentFetcher({ ...trusted, timeout: 200 })
      .run({ urls: [`${server.origin}/hang`] })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ reason: "timeout" });
    expect((error as Error).message).toContain(`"${server.origin}/hang" took longer than timeout (200 ms)`);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  test("maxRedirects: a redirect loop stops", async () => {
    const error = await new LinkContentFetcher({ ...trusted, maxRedirects: 3 })
      .run({ urls: [`${server.origin}/loop`] })
      .catch((caught: unknown) => caught);
    expect((error as Error).message).toContain("redirected more than maxRedirects (3) times");
  });

  test("an HTTP error throws by default; raiseOnFailure: false warns, skips it and keeps the others in order", async () => {
    await expect(
      new LinkContentFetcher(trusted).run({ urls: [`${server.origin}/missing`] }),
    ).rejects.toMatchObject({
      reason: "http_status",
      status: 404,
    });
    const logger = new MemoryLogger();
    const { streams } = await new LinkContentFetcher({
      ...trusted,
      raiseOnFailure: false,
      maxBytes: 4096,
    }).run(
      {
        urls: [
          `${server.origin}/missing`,
          `${server.origin}/page`,
          `${server.origin}/big-declared`,
          `${server.origin}/data.json`,
        ],
      },
      { logger },
    );
    expect(streams?.map((stream) => stream.meta.url)).toEqual([
      `${server.origin}/page`,
      `${server.origin}/data.json`,
    ]);
    const warnings = logger.messages("warn").sort();
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain(`"${server.origin}/big-declared" sent 5000 bytes, over maxBytes (4096)`);
    expect(warnings[1]).toContain(`"${server.origin}/missing" answered HTTP 404`);
    expect(warnings[1]).toContain("Skipped it");
  });

  test("retries a 503 with the next user agent", async () => {
    failuresLeft = 1;
    const before = server.requests.length;
    const { streams } = await new LinkContentFetcher({
      allowPrivateAddresses: true,
      retryAttempts: 1,
      userAgents: ["first", "second"],
    }).run({ urls: [`${server.origin}/flaky`] });
    expect(streams?.[0]?.toText()).toBe("recovered");
    expect(server.requests.slice(before).map((request) => request.headers["user-agent"])).toEqual([
      "first",
      "second",
    ]);
  });

  test("aborting the run stops a fetch in flight with the signal's reason", async () => {
    const controller = new AbortController();
    const run = new LinkContentFetcher(trusted).run(
      { urls: [`${server.origin}/hang`] },
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(new Error("user cancelled")), 50);
    await expect(run).rejects.toThrow("user cancelled");
  });
});
