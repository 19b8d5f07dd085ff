import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { appendDurable, readDurableLinesBackward, trimTornTail } from "@junction/core";
import { expect, test } from "vitest";
import { useTempDirs } from "../../../test/support/temp-dirs.js";

const tempDir = useTempDirs("durable");
async function tempFile(): Promise<string> {
  return join(await tempDir(), "lines.jsonl");
}

async function backward(path: string, chunkSize?: number): Promise<{ text: string; offset: number }[]> {
  const out: { text: string; offset: number }[] = [];
  for await (const line of readDurableLinesBackward(path, chunkSize)) out.push(line);
  return out;
}

test("readDurableLinesBackward yields complete lines last first, across chunk boundaries, skipping a torn tail", async () => {
  const file = await tempFile();
  const lines = ["alpha", "βeta ünïcode", "", "gamma".repeat(7), "d"];
  await writeFile(file, `${lines.join("\n")}\n{"torn":`);
  const expected = lines.filter((line) => line !== "").reverse();
  for (const chunkSize of [1, 2, 3, 7, 64, 65_536]) {
    const read = await backward(file, chunkSize);
    expect(read.map((line) => line.text)).toEqual(expected);
    const text = await readFile(file);
    for (const line of read) {
      expect(text.subarray(line.offset, line.offset + Buffer.byteLength(line.text)).toString()).toBe(
        line.text,
      );
    }
  }
  expect(await backward(join(file, "..", "missing.jsonl"))).toEqual([]);
});

test("readDurableLinesBackward stops reading when the caller stops", async () => {
  const file = await tempFile();
  for (let index = 0; index < 50; index++) await appendDurable(file, `line ${index}`);
  const seen: string[] = [];
  for await (const line of readDurableLinesBackward(file, 16)) {
    seen.push(line.text);
    if (seen.length === 2) break;
  }
  expect(seen).toEqual(["line 49", "line 48"]);
});

test("trimTornTail cuts what a crash left after the last newline, so the next append is a line of its own", async () => {
  const file = await tempFile();
  await writeFile(file, 'one\ntwo\n{"half":');
  await trimTornTail(file);
  await appendDurable(file, "three");
  expect(await readFile(file, "utf8")).toBe("one\ntwo\nthree\n");
  await writeFile(file, "no newline at all");
  await trimTornTail(file);
  expect(await readFile(file, "utf8")).toBe("");
  await trimTornTail(join(file, "..", "missing.jsonl"));
});
