import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { DeserializationError, FileRunStore, JunctionError, RunSnapshot } from "@junction/core";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { fixtureAgent, snapshotFixture } from "../../packages/agents/test/fixtures/snapshot-fixture.js";

/**
 * Hostile run snapshots: loading one is as safe as loading a pipeline document. Each must be refused
 * with a clear error (nothing runs), never pollute a prototype, crash or hang.
 */

const base = (): Record<string, any> => snapshotFixture("run-snapshot-v1-agent.json");
const agent = (runs: number[]) => fixtureAgent(runs, "ok");

function polluted(): boolean {
  const probe = {} as Record<string, unknown>;
  return probe.polluted !== undefined || probe.isAdmin !== undefined;
}

const parseCases: [string, (doc: Record<string, any>) => unknown, RegExp][] = [
  [
    "a __proto__ key in the inputs",
    (doc) => JSON.parse(JSON.stringify(doc).replace('"inputs":{', '"inputs":{"__proto__":{"polluted":1},')),
    /__proto__/,
  ],
  ["another format", (doc) => ({ ...doc, format: "junction.pipeline" }), /format/],
  ["version 2", (doc) => ({ ...doc, version: 2 }), /version/],
  [
    "a run id that walks out of the store directory",
    (doc) => ({ ...doc, runId: "../../etc/passwd" }),
    /runId/,
  ],
  ["an unknown top-level key", (doc) => ({ ...doc, exec: "rm -rf /" }), /exec/],
  [
    "a decision with an unknown action",
    (doc) => ({ ...doc, decisions: { x: { action: "sudo" } } }),
    /decisions/,
  ],
  [
    "inputs nested 100 000 levels",
    (doc) => {
      let value: unknown = 1;
      for (let i = 0; i < 100_000; i++) value = [value];
      return { ...doc, inputs: { deep: value } };
    },
    /nest|deep/,
  ],
  ["two million values", (doc) => ({ ...doc, inputs: { many: new Array(2_000_000).fill(0) } }), /more than/],
];

describe("RunSnapshot.parse refuses hostile snapshots", () => {
  for (const [name, make, message] of parseCases) {
    test(name, () => {
      const input = make(base());
      expect(() => RunSnapshot.parse(input)).toThrow(DeserializationError);
      expect(() => RunSnapshot.parse(input)).toThrow(message);
      expect(polluted()).toBe(false);
    });
  }
});

const resumeCases: [string, (doc: Record<string, any>) => void, string][] = [
  [
    "agent state with a key the Agent does not have",
    (doc) => {
      doc.component.state.isAdmin = true;
    },
    "DESERIALIZATION_ERROR",
  ],
  [
    "agent state with a malformed message",
    (doc) => {
      doc.component.state.messages[0] = { role: "root" };
    },
    "DESERIALIZATION_ERROR",
  ],
  [
    "agent state of an unknown shape",
    (doc) => {
      doc.component = { kind: "junction.Agent", version: 9 };
    },
    "DESERIALIZATION_ERROR",
  ],
  [
    "a gated call whose arguments were changed in the messages",
    (doc) => {
      doc.component.state.messages[1].content[0].tool_call.arguments.amount = 1;
    },
    "RESUME_ARGS_CHANGED",
  ],
  [
    "a call list that does not match the messages",
    (doc) => {
      doc.component.calls = [];
    },
    "RESUME_ARGS_CHANGED",
  ],
  [
    "a snapshot of another component type",
    (doc) => {
      doc.root.type = "junction.OtherThing";
    },
    "RESUME_DEFINITION_CHANGED",
  ],
  [
    "a completed run",
    (doc) => {
      doc.status = "completed";
    },
    "RUN_NOT_RESUMABLE",
  ],
];

describe("agent.resume refuses hostile snapshots before anything runs", () => {
  for (const [name, mutate, code] of resumeCases) {
    test(name, async () => {
      const doc = base();
      mutate(doc);
      const runs: number[] = [];
      await expect(
        agent(runs).resume(
          doc as never,
          { "s1/call_1": { action: "approve" } },
          { allowDefinitionChange: true },
        ),
      ).rejects.toMatchObject({ code });
      expect(runs).toEqual([]);
    });
  }
});

test("random patches never pollute and fail only with Junction errors", async () => {
  const key = fc.oneof(
    fc.constantFrom("__proto__", "constructor", "prototype", "component", "state", "inputs"),
    fc.string({ maxLength: 5 }),
  );
  await fc.assert(
    fc.asyncProperty(fc.dictionary(key, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 }), async (patch) => {
      const doc = { ...base(), ...patch };
      const runs: number[] = [];
      try {
        await agent(runs).resume(
          JSON.parse(JSON.stringify(doc)),
          { "s1/call_1": { action: "reject" } },
          { allowDefinitionChange: true },
        );
      } catch (error) {
        if (!JunctionError.isInstance(error)) throw error;
      }
      expect(runs).toEqual([]);
      expect(polluted()).toBe(false);
    }),
    { numRuns: 100 },
  );
}, 60_000); // a hundred parse-and-resume attempts: generous for a loaded CI machine

describe('a taken-over run refuses hostile deltas (durability "steps") before anything runs', () => {
  /** A `running` run of the agent, as a crashed process leaves it, with `deltas` in its journal. */
  async function crashed(lines: string[]) {
    const dir = await mkdtemp(join(tmpdir(), "junction-hostile-deltas-"));
    const runs: number[] = [];
    const subject = agent(runs);
    const store = new FileRunStore(dir);
    const doc = base();
    // The same agent's running snapshot, left by a process that no longer exists (pid 0 is never one).
    const running: Record<string, unknown> = {
      ...doc,
      runId: "crashed",
      seq: 1,
      parent: null,
      status: "running",
      durability: "steps",
      lease: { owner: "gone", host: hostname(), pid: 2 ** 22 + 1, ms: 60_000 },
      interrupts: [],
      decisions: {},
    };
    delete running.component;
    await store.save(RunSnapshot.parse(running), null);
    await writeFile(join(dir, "crashed", "0000000001.deltas.jsonl"), `${lines.join("\n")}\n`);
    return { dir, runs, subject, store };
  }

  const deep = (depth: number): unknown => (depth === 0 ? 1 : [deep(depth - 1)]);
  const cases: [string, string[], RegExp][] = [
    ["a line that is not JSON", ["{not json"], /line 1 of .* is not JSON/],
    ["a delta of another shape", ['{"step":"llm#0"}'], /delta 1 of the run is not a step result/],
    [
      "a delta nested beyond the bound",
      [JSON.stringify({ step: "llm#0", value: deep(1_100), at: 1 })],
      /delta 1 .*deeper than|delta 1 .*depth/,
    ],
  ];
  for (const [name, lines, message] of cases) {
    test(name, async () => {
      const { dir, runs, subject, store } = await crashed(lines);
      try {
        const error = await subject
          .resume("crashed", {}, { store, allowDefinitionChange: true })
          .catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(DeserializationError);
        expect((error as Error).message).toMatch(message);
        expect(runs).toEqual([]);
        expect(await store.load("crashed")).toMatchObject({ seq: 1, status: "running" });
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  }

  test("a __proto__ key in a replayed model reply is refused, nothing polluted", async () => {
    const { dir, runs, subject, store } = await crashed([
      '{"step":"llm#0","value":[{"__proto__":{"polluted":1}},{"$junction":"object","value":{"__proto__":{"isAdmin":true}}}],"at":1}',
    ]);
    try {
      const error = await subject
        .resume("crashed", {}, { store, allowDefinitionChange: true })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(DeserializationError);
      expect((error as Error).message).toMatch(/delta 1 .*"__proto__" is not allowed.*Nothing was claimed/);
      expect(await store.load("crashed")).toMatchObject({ seq: 1, status: "running" });
      expect(polluted()).toBe(false);
      expect(runs).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
