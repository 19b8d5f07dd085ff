import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, stat, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

/**
 * Drives the playground in Debian's Chromium (`.ci/run` installs it with apt). Without it, the tests are
 * skipped locally and fail in CI, so a missing browser never passes silently there.
 */
const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const haveBrowser = existsSync(chromiumPath);
if (!haveBrowser && process.env.CI) {
  throw new Error(`The browser tests need Chromium at ${chromiumPath}: run "apt-get install -y chromium".`);
}
const repo = fileURLToPath(new URL("../../../", import.meta.url));
const artifacts = `${repo}test-artifacts/playground/`;

/** Starts `junction dev` on a free loopback port and resolves with its URL. */
function startDev(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    [`${repo}packages/cli/bin/junction.mjs`, "dev", "packages/playground/test/served.ts", "--port", "0"],
    { cwd: repo, env: { ...process.env, JUNCTION_API_KEY: "" }, stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  return new Promise((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /open (http:\/\/127\.0\.0\.1:\d+)\/playground\//.exec(output);
      if (match?.[1]) resolve({ child, url: match[1] });
    };
    child.stdout?.on("data", read);
    child.stderr?.on("data", read);
    child.on("exit", (code) => reject(new Error(`junction dev exited (${code}) before serving:\n${output}`)));
  });
}

describe.skipIf(!haveBrowser)("the playground in a real browser", () => {
  let server: { child: ChildProcess; url: string };
  let browser: Browser;
  let page: Page;
  const requests: string[] = [];

  beforeAll(async () => {
    await mkdir(artifacts, { recursive: true });
    server = await startDev();
    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on("request", (request) => requests.push(request.url()));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    if (server !== undefined) {
      const exited = new Promise((resolve) => server.child.on("exit", resolve));
      server.child.kill("SIGTERM");
      await exited;
    }
  });

  test("the page is small, renders fast and works from the keyboard", async () => {
    await page.goto(`${server.url}/playground/`);
    await expect.poll(() => page.locator("#pipelines button").count()).toBe(5);
    // Page-side code as text: this project's TypeScript has no DOM library.
    const timing = (await page.evaluate(`(() => ({
      firstContentfulPaint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null,
      domContentLoaded: performance.getEntriesByType("navigation")[0]?.domContentLoadedEventEnd ?? null,
      transferred: [...performance.getEntriesByType("resource"), ...performance.getEntriesByType("navigation")]
        .reduce((sum, entry) => sum + (entry.encodedBodySize ?? 0), 0),
    }))()`)) as Record<string, number | null>;
    let bundle = 0;
    for (const file of ["index.html", "app.js", "app.css"])
      bundle += (await stat(new URL(`../static/${file}`, import.meta.url))).size;
    expect(bundle).toBeLessThan(100_000);
    await writeFile(
      `${artifacts}metrics.json`,
      `${JSON.stringify({ bundleBytes: bundle, ...timing }, null, 2)}\n`,
    );

    // Tab from the top to the "loop" pipeline and open it with Enter.
    for (let presses = 0; presses < 10; presses++) {
      await page.keyboard.press("Tab");
      if ((await page.evaluate("document.activeElement?.textContent")) === "loop") break;
    }
    await page.keyboard.press("Enter");
    await expect.poll(() => page.locator("#pipeline-title").textContent()).toBe("loop");
    await page.keyboard.press("Tab");
    expect(await page.evaluate('document.activeElement?.getAttribute("data-node")')).toBe("entry");
    await expect.poll(() => page.locator("#node-details").textContent()).toContain("greedy variadic");
  }, 60_000);

  test("open a pipeline, run it, see the components complete, the route, the answer and the timeline", async () => {
    await page.goto(`${server.url}/playground/`);
    await page.getByRole("button", { name: "agent", exact: true }).click();
    await expect.poll(() => page.locator("#graph .node").count()).toBe(2);
    expect(await page.locator("#graph .node.kind-agent").getAttribute("data-node")).toBe("agent");
    expect(await page.locator("#graph .node.kind-router").getAttribute("data-node")).toBe("router");

    // Keyboard: focus a component and read its sockets and types.
    await page.locator('#graph .node[data-node="agent"]').focus();
    await expect.poll(() => page.locator("#node-details").textContent()).toContain("ChatMessage[]");

    await page.getByLabel(/messages/).fill("What is the weather in Paris?");
    await page.getByRole("button", { name: "Run", exact: true }).click();
    await expect
      .poll(() => page.locator("#run-status").textContent(), { timeout: 20_000 })
      .toMatch(/completed/);

    expect(await page.locator('#graph .node[data-node="agent"]').getAttribute("class")).toContain("done");
    expect(await page.locator('#graph .node[data-node="router"]').getAttribute("class")).toContain("done");
    expect(await page.locator("#tokens").textContent()).toContain("It is sunny and noon in Paris.");
    const summary = await page.locator("#result-summary").textContent();
    expect(summary).toContain("agent: text");
    expect(summary).toContain("router → answer");
    expect(await page.locator("#output").textContent()).toContain("It is sunny and noon in Paris.");
    await page.screenshot({ path: `${artifacts}run.png`, fullPage: true });
    // The agent's step shows both tool calls done, planned in one batch.
    const steps = await page.locator("#agent-steps").textContent();
    expect(steps).toContain("weather");
    expect(steps).toContain("batch 1: weather, clock");
    expect(await page.locator('#agent-steps li[data-tool="clock"] .state-done').count()).toBe(1);
    expect(await page.locator("#timeline .span-row").count()).toBeGreaterThan(4);
  }, 60_000);

  test("a retrieval run shows the documents it found with score, content and meta", async () => {
    await page.goto(`${server.url}/playground/`);
    await page.getByRole("button", { name: "search", exact: true }).click();
    await expect.poll(() => page.locator("#pipeline-title").textContent()).toBe("search");
    await page.getByLabel(/question/).fill("tipping customs in France");
    await page.getByRole("button", { name: "Run", exact: true }).click();
    await expect
      .poll(() => page.locator("#run-status").textContent(), { timeout: 20_000 })
      .toMatch(/completed/);
    expect(await page.locator("#documents-panel").isHidden()).toBe(false);
    expect(await page.locator("#documents h5").first().textContent()).toBe("retriever.documents (3)");
    const first = page.locator("#documents .document-card").first();
    expect(await first.locator(".score").textContent()).toMatch(/^score \d+\.\d{4}$/);
    expect(await first.locator("p").textContent()).toContain(
      "France: restaurant bills include a 15% service charge",
    );
    expect(await first.locator(".meta").textContent()).toContain("country: France");
    await page.screenshot({ path: `${artifacts}documents.png`, fullPage: true });
  }, 60_000);

  test("an input typed any starts empty and takes plain text", async () => {
    await page.getByRole("button", { name: "prompt", exact: true }).click();
    await expect.poll(() => page.locator("#pipeline-title").textContent()).toBe("prompt");
    const field = page.getByLabel(/name/);
    expect(await field.inputValue()).toBe("");
    await field.fill("Ada Lovelace");
    await page.getByRole("button", { name: "Run", exact: true }).click();
    await expect
      .poll(() => page.locator("#run-status").textContent(), { timeout: 20_000 })
      .toMatch(/completed/);
    expect(await page.locator("#output").textContent()).toContain("Hello, Ada Lovelace!");
  }, 60_000);

  test("a loop lights each visit and the loop edge is drawn as a loop", async () => {
    await page.getByRole("button", { name: "loop", exact: true }).click();
    await expect.poll(() => page.locator("#pipeline-title").textContent()).toBe("loop");
    await expect.poll(() => page.locator("#graph .edge.loop").count()).toBe(1);
    await page.getByLabel(/value/).fill("0");
    await page.getByRole("button", { name: "Run", exact: true }).click();
    await expect
      .poll(() => page.locator("#run-status").textContent(), { timeout: 20_000 })
      .toMatch(/completed/);
    expect(await page.locator('#graph .node[data-node="add"] .visits').textContent()).toBe("×3");
    expect(await page.locator("#output").textContent()).toContain('"done": 3');
  }, 60_000);

  test("a run that needs approval waits in the inbox; approving it there finishes the run", async () => {
    await page.goto(`${server.url}/playground/`);
    await page.getByRole("button", { name: "refunds", exact: true }).click();
    await expect.poll(() => page.locator("#pipeline-title").textContent()).toBe("refunds");
    await page.getByLabel(/messages/).fill("Refund order A-1, please.");
    await page.getByRole("button", { name: "Run", exact: true }).click();
    await expect
      .poll(() => page.locator("#run-status").textContent(), { timeout: 20_000 })
      .toMatch(/interrupted/);

    // The inbox lists the run with its pending tool call and arguments.
    await expect.poll(() => page.locator("#inbox li").count(), { timeout: 10_000 }).toBe(1);
    expect(await page.locator("#inbox-count").textContent()).toBe("1");
    const item = page.locator("#inbox li button");
    expect(await item.textContent()).toContain('refund({"order":"A-1","amount":500})');
    await item.click();
    await expect.poll(() => page.locator("#approval-view").isVisible()).toBe(true);
    expect(await page.locator("#approval-items legend").textContent()).toBe("Tool call refund");
    expect(await page.locator("#approval-items textarea").inputValue()).toContain('"amount": 500');
    await page.screenshot({ path: `${artifacts}approval.png`, fullPage: true });

    await page.getByRole("button", { name: "Approve all" }).click();
    await expect
      .poll(() => page.locator("#approval-status").textContent(), { timeout: 20_000 })
      .toBe("Run completed.");
    expect(await page.locator("#approval-result").textContent()).toContain("Refunded order A-1.");
    await expect.poll(() => page.locator("#inbox li").count()).toBe(0);
    expect(await page.locator("#inbox-empty").isVisible()).toBe(true);
  }, 60_000);

  test("narrow windows stack the sidebar above the pipeline", async () => {
    await page.setViewportSize({ width: 420, height: 900 });
    const sidebar = await page.locator(".sidebar").boundingBox();
    const main = await page.locator("main").boundingBox();
    expect(sidebar && main && main.y >= sidebar.y + sidebar.height - 1).toBe(true);
    await page.screenshot({ path: `${artifacts}narrow.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
  }, 30_000);

  test("the page asks nothing of any server but its own", () => {
    const origin = new URL(server.url).origin;
    expect(requests.length).toBeGreaterThan(3);
    expect(requests.filter((url) => !url.startsWith(origin))).toEqual([]);
  });
});
