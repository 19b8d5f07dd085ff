import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { EvaluationRunResult } from "@junction/evaluation";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

/**
 * Opens the HTML report in Debian's Chromium (`.ci/run` installs it with apt). Without it the test is
 * skipped locally (with a message) and fails in CI, so a missing browser never passes silently there.
 */
const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const haveBrowser = existsSync(chromiumPath);
if (!haveBrowser && process.env.CI) {
  throw new Error(`The browser tests need Chromium at ${chromiumPath}: run "apt-get install -y chromium".`);
}

const questions = ["What is BM25?", "<img src=x onerror=alert(1)> & <b>bold</b>", "Third"];
const run = (name: string, recall: number[], mrr: number[]) =>
  new EvaluationRunResult({
    runName: name,
    inputs: { question: questions },
    results: {
      recall: { score: recall.reduce((a, b) => a + b, 0) / recall.length, individual_scores: recall },
      mrr: { score: mrr.reduce((a, b) => a + b, 0) / mrr.length, individual_scores: mrr },
    },
  });

describe.skipIf(!haveBrowser)("the HTML report in a real browser", () => {
  let browser: Browser;
  let file: string;

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), "junction-eval-html-"));
    file = join(dir, "report.html");
    writeFileSync(
      file,
      run("hybrid", [1, 1, 0], [1, 0.5, 0]).toHTML({ compare: run("bm25", [1, 0, 0], [0.5, 0.5, 0]) }),
    );
    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  test("renders the chart and the table from the file alone, with user text shown as text", async () => {
    const page = await browser.newPage();
    const requests: string[] = [];
    const problems: string[] = [];
    page.on("request", (request) => requests.push(request.url()));
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(message.text());
    });
    page.on("dialog", (dialog) => {
      problems.push(`dialog: ${dialog.message()}`);
      void dialog.dismiss();
    });
    await page.goto(pathToFileURL(file).href);
    // Two metrics × two runs = four bars, plus the two legend swatches.
    expect(await page.locator("svg.chart rect").count()).toBe(6);
    expect(await page.locator("table tbody tr").count()).toBe(3);
    const cell = page.locator("table tbody tr").nth(1).locator("td").nth(1);
    expect(await cell.textContent()).toBe(questions[1]);
    expect(await page.locator("table img, table b").count()).toBe(0);
    expect(await page.locator("td.better").count()).toBe(2);
    expect(await page.locator("td.worse").count()).toBe(0);
    expect(await page.title()).toBe("Evaluation: hybrid vs bm25");
    expect(requests).toEqual([pathToFileURL(file).href]);
    expect(problems).toEqual([]);
    await page.close();
  });
});

test.runIf(!haveBrowser)("the HTML browser test is skipped: no Chromium", () => {
  // Say why nothing ran (the console guard allows no output, so the reason is the test's name).
  expect(haveBrowser).toBe(false);
});
