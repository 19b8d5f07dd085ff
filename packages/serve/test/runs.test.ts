import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileRunStore, MemoryRunStore, type RunStore } from "@junction/core";
import { createApp, serve } from "@junction/serve";
import { describe, expect, test } from "vitest";
import { refundApprovalPipeline } from "../../../test/support/refund-approval.js";
import { readEvents } from "./support/sse.js";

/**
 * The run routes: a pipeline whose agent calls a tool that needs approval stops, is kept in the store,
 * listed in the inbox, and resumed over HTTP with decisions.
 */

const request = { messages: [{ role: "user", content: [{ text: "Refund order A-1" }] }] };

function post(path: string, body: unknown): Request {
  return new Request(`http://127.0.0.1:3700${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

function get(path: string): Request {
  return new Request(`http://127.0.0.1:3700${path}`);
}

/** A server for the refund pipeline; `null`: a server without a store. */
function setup(store: RunStore | null = new MemoryRunStore()) {
  const { pipeline, refunds } = refundApprovalPipeline();
  const app = createApp({ pipelines: { refunds: pipeline }, auth: {}, ...(store ? { store } : {}) });
  return { app, refunds };
}

interface Interrupted {
  status: string;
  run_id: string;
  pipeline: string;
  interrupts: { id: string; kind: string; tool: string; arguments: unknown; argsHash: string }[];
}

interface ErrorAnswer {
  error: { type: string; code?: string; message: string; issues?: { path: string[] }[] };
}

async function interrupt(app: ReturnType<typeof setup>["app"]): Promise<Interrupted> {
  const response = await app.fetch(post("/pipelines/refunds/run", request));
  expect(response.status).toBe(202);
  return (await response.json()) as Interrupted;
}

describe("a run that needs approval", () => {
  test("is kept, answered with its id and pending tool call, listed, and resumed to the end", async () => {
    const { app, refunds } = setup();
    const paused = await interrupt(app);
    expect(paused).toMatchObject({ status: "interrupted", pipeline: "refunds" });
    expect(paused.run_id).toMatch(/^refunds\.[0-9a-f-]{36}$/);
    expect(paused.interrupts).toEqual([
      expect.objectContaining({
        id: "agent#1/s1/call_1",
        kind: "tool_approval",
        tool: "refund",
        arguments: { order: "A-1", amount: 500 },
      }),
    ]);
    expect(refunds).toEqual([]);

    const inbox = (await (await app.fetch(get("/runs?status=interrupted"))).json()) as {
      runs: { run_id: string; pipeline: string; updated_at: string; interrupts: { tool: string }[] }[];
    };
    expect(inbox.runs.map((run) => [run.run_id, run.pipeline, run.interrupts[0]?.tool])).toEqual([
      [paused.run_id, "refunds", "refund"],
    ]);
    expect(Number.isNaN(Date.parse(inbox.runs[0]?.updated_at ?? ""))).toBe(false);

    const view = (await (await app.fetch(get(`/runs/${paused.run_id}`))).json()) as Record<string, unknown>;
    expect(view).toMatchObject({ run_id: paused.run_id, status: "interrupted", pipeline: "refunds" });

    const id = paused.interrupts[0]?.id ?? "";
    const resumed = await app.fetch(
      post(`/runs/${paused.run_id}/resume`, { decisions: { [id]: { action: "approve" } } }),
    );
    expect(resumed.status).toBe(200);
    const done = (await resumed.json()) as {
      status: string;
      outputs: { reply: { content: { text: string }[] } };
    };
    expect(done.status).toBe("completed");
    expect(done.outputs.reply.content[0]?.text).toBe("Refunded.");
    expect(refunds).toEqual(["A-1:500"]);

    const after = (await (await app.fetch(get(`/runs/${paused.run_id}`))).json()) as {
      status: string;
      history: { status: string }[];
    };
    expect(after.status).toBe("completed");
    expect(after.history.map((entry) => entry.status)).toEqual(["interrupted", "running", "completed"]);
    expect(await (await app.fetch(get("/runs?status=interrupted"))).json()).toEqual({ runs: [] });
  });

  test("resumed with Accept: text/event-stream, the run's events come as SSE; refusals stay JSON", async () => {
    const { app, refunds } = setup();
    const paused = await interrupt(app);
    const id = paused.interrupts[0]?.id ?? "";
    const sse = (body: unknown) => {
      const request = post(`/runs/${paused.run_id}/resume`, body);
      request.headers.set("accept", "text/event-stream");
      return app.fetch(request);
    };
    const refused = await sse({ decisions: {} });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as ErrorAnswer).error.code).toBe("RESUME_INCOMPLETE");

    const response = await sse({ decisions: { [id]: { action: "approve" } } });
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const events = (await readEvents(response)).filter((event) => event.event !== ":");
    // The agent continues its paused step: the tool's result (and the end of the results) stream as chunks.
    expect(events.map((event) => event.event)).toEqual([
      "component_start",
      "chunk",
      "chunk",
      "component_end",
      "run_end",
    ]);
    expect(JSON.parse(events[0]!.data)).toMatchObject({ component: "agent", visit: 1 });
    const end = JSON.parse(events.at(-1)!.data) as { outputs: { reply: { content: { text: string }[] } } };
    expect(end.outputs.reply.content[0]?.text).toBe("Refunded.");
    expect(refunds).toEqual(["A-1:500"]);
    const after = (await (await app.fetch(get(`/runs/${paused.run_id}`))).json()) as { status: string };
    expect(after.status).toBe("completed");

    // A client that leaves a streamed resume stops receiving; the decision is still carried out.
    const again = await interrupt(app);
    const request = post(`/runs/${again.run_id}/resume`, {
      decisions: { [again.interrupts[0]?.id ?? ""]: { action: "approve" } },
    });
    request.headers.set("accept", "text/event-stream");
    await readEvents(await app.fetch(request), (seen) =>
      seen.some((event) => event.event === "component_start"),
    );
    await expect
      .poll(
        async () =>
          ((await (await app.fetch(get(`/runs/${again.run_id}`))).json()) as { status: string }).status,
      )
      .toBe("completed");
    expect(refunds).toEqual(["A-1:500", "A-1:500"]);
  });

  test("a rejected call never runs; the model hears why", async () => {
    const { app, refunds } = setup();
    const paused = await interrupt(app);
    const id = paused.interrupts[0]?.id ?? "";
    const resumed = await app.fetch(
      post(`/runs/${paused.run_id}/resume`, {
        decisions: { [id]: { action: "reject", message: "too much" } },
      }),
    );
    const done = (await resumed.json()) as { outputs: { reply: { content: { text: string }[] } } };
    expect(done.outputs.reply.content[0]?.text).toBe("Not refunded.");
    expect(refunds).toEqual([]);
  });

  test("two concurrent resumes: exactly one wins, the tool runs once", async () => {
    const { app, refunds } = setup();
    const paused = await interrupt(app);
    const body = { decisions: { [paused.interrupts[0]?.id ?? ""]: { action: "approve" } } };
    const answers = await Promise.all([
      app.fetch(post(`/runs/${paused.run_id}/resume`, body)),
      app.fetch(post(`/runs/${paused.run_id}/resume`, body)),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const refused = answers.find((answer) => answer.status === 409) as Response;
    expect(((await refused.json()) as ErrorAnswer).error.code).toBe("RUN_ALREADY_RESUMED");
    expect(refunds).toEqual(["A-1:500"]);
  });

  test("streamed over SSE: an interrupt event with the run id, then run_end, and the run resumes", async () => {
    const { app, refunds } = setup();
    const response = await app.fetch(post("/pipelines/refunds/stream", request));
    const text = await response.text();
    const events = [...text.matchAll(/^event: (.*)\ndata: (.*)$/gm)].map((match) => ({
      event: match[1],
      data: JSON.parse(match[2] ?? "null") as Record<string, unknown>,
    }));
    expect(events.slice(-2).map((event) => event.event)).toEqual(["interrupt", "run_end"]);
    const paused = events.at(-2)?.data as unknown as Interrupted;
    expect(paused.interrupts[0]?.tool).toBe("refund");
    expect(text).not.toContain("junction.run-snapshot"); // never the snapshot itself
    expect(events.at(-1)?.data).toMatchObject({ status: "interrupted", run_id: paused.run_id });
    const resumed = await app.fetch(
      post(`/runs/${paused.run_id}/resume`, {
        decisions: { [paused.interrupts[0]?.id ?? ""]: { action: "approve" } },
      }),
    );
    expect(resumed.status).toBe(200);
    expect(refunds).toEqual(["A-1:500"]);
  });
});

describe("refusals", () => {
  test("bad decisions are 400 with every issue; nothing runs and the run still waits", async () => {
    const { app, refunds } = setup();
    const paused = await interrupt(app);
    const id = paused.interrupts[0]?.id ?? "";
    const resume = (body: unknown) => app.fetch(post(`/runs/${paused.run_id}/resume`, body));

    const malformed = await resume({ decisions: { [id]: { action: "maybe" } }, extra: 1 });
    expect(malformed.status).toBe(400);
    const issues = ((await malformed.json()) as ErrorAnswer).error.issues?.map((issue) =>
      issue.path.join("."),
    );
    expect(issues).toEqual(expect.arrayContaining(["extra"]));

    const wrongAction = await resume({ decisions: { [id]: { action: "maybe" } } });
    expect(wrongAction.status).toBe(400);
    const wrongIssues = ((await wrongAction.json()) as ErrorAnswer).error.issues ?? [];
    expect(wrongIssues.map((issue) => issue.path.slice(0, 2).join("|"))).toEqual([`decisions|${id}`]);

    const missing = await resume({ decisions: {} });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as ErrorAnswer).error.code).toBe("RESUME_INCOMPLETE");

    const unknown = await resume({
      decisions: { [id]: { action: "approve" }, "agent#1/s1/nope": { action: "approve" } },
    });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as ErrorAnswer).error.code).toBe("RESUME_UNKNOWN_INTERRUPT");

    const stale = await resume({ decisions: { [id]: { action: "approve", argsHash: "sha256:0" } } });
    expect(stale.status).toBe(409);
    expect(((await stale.json()) as ErrorAnswer).error.code).toBe("RESUME_ARGS_CHANGED");

    const notJSON = await resume("{ decisions");
    expect(notJSON.status).toBe(400);

    expect(refunds).toEqual([]);
    const view = (await (await app.fetch(get(`/runs/${paused.run_id}`))).json()) as { status: string };
    expect(view.status).toBe("interrupted");
  });

  test("unknown runs are 404; a finished run is 409; a bad status filter is 400", async () => {
    const { app } = setup();
    const missing = await app.fetch(post("/runs/refunds.nope/resume", { decisions: {} }));
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as ErrorAnswer).error.code).toBe("RUN_NOT_FOUND");
    expect((await app.fetch(get("/runs/nope"))).status).toBe(404);
    expect((await app.fetch(get("/runs?status=paused"))).status).toBe(400);

    const paused = await interrupt(app);
    const body = { decisions: { [paused.interrupts[0]?.id ?? ""]: { action: "approve" } } };
    expect((await app.fetch(post(`/runs/${paused.run_id}/resume`, body))).status).toBe(200);
    const again = await app.fetch(post(`/runs/${paused.run_id}/resume`, body));
    expect(again.status).toBe(409);
    expect(((await again.json()) as ErrorAnswer).error.code).toBe("RUN_NOT_RESUMABLE");
  });

  test("without a store: no run routes, and a run that needs a decision is refused with 409", async () => {
    const { app, refunds } = setup(null);
    const response = await app.fetch(post("/pipelines/refunds/run", request));
    expect(response.status).toBe(409);
    const body = (await response.json()) as ErrorAnswer;
    expect(body.error.code).toBe("RUN_INTERRUPTED");
    expect(body.error.message).toContain("keeps no runs");
    expect((await app.fetch(get("/runs"))).status).toBe(404);
    expect(refunds).toEqual([]);
  });

  test("a tampered snapshot in the store is refused, not run", async () => {
    const store = new MemoryRunStore();
    const { app, refunds } = setup(store);
    const paused = await interrupt(app);
    const head = await store.load(paused.run_id);
    // Another writer puts something that is not a snapshot on top.
    await store.save({ ...head, seq: 2, parent: 1, interrupts: [{ id: 42 }] } as never, 1);
    const view = await app.fetch(get(`/runs/${paused.run_id}`));
    expect(view.status).toBe(500);
    expect(((await view.json()) as ErrorAnswer).error.type).toBe("DeserializationError");
    const resumed = await app.fetch(
      post(`/runs/${paused.run_id}/resume`, {
        decisions: { [paused.interrupts[0]?.id ?? ""]: { action: "approve" } },
      }),
    );
    expect(resumed.status).toBe(500);
    expect(refunds).toEqual([]);
  });
});

test("over the OpenAI-compatible route, a run that needs approval is an error naming the kept run", async () => {
  const { app, refunds } = setup();
  const response = await app.fetch(
    post("/v1/chat/completions", { model: "refunds", messages: [{ role: "user", content: "Refund A-1" }] }),
  );
  expect(response.status).toBe(409);
  const body = (await response.json()) as ErrorAnswer;
  const inbox = (await (await app.fetch(get("/runs?status=interrupted"))).json()) as {
    runs: { run_id: string }[];
  };
  expect(inbox.runs).toHaveLength(1);
  expect(body.error.message).toContain(`POST /runs/${inbox.runs[0]?.run_id}/resume`);
  expect(refunds).toEqual([]);
});

test("OpenAPI lists the run routes when the server keeps runs", async () => {
  const paths = async (app: ReturnType<typeof setup>["app"]) =>
    Object.keys(((await (await app.fetch(get("/openapi.json"))).json()) as { paths: object }).paths);
  expect(await paths(setup().app)).toEqual(
    expect.arrayContaining(["/runs", "/runs/{id}", "/runs/{id}/resume"]),
  );
  expect(await paths(setup(null).app)).not.toContain("/runs");
});

test("over a socket with a FileRunStore: a new server process resumes what the first one paused", async () => {
  const directory = await mkdtemp(join(tmpdir(), "junction-runs-"));
  try {
    const first = setup(new FileRunStore(directory));
    const server = await serve({ app: first.app, port: 0 });
    let paused: Interrupted;
    try {
      const response = await fetch(`${server.url}/pipelines/refunds/run`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(request),
      });
      expect(response.status).toBe(202);
      paused = (await response.json()) as Interrupted;
    } finally {
      await server.close();
    }
    // A restarted server (same pipeline definition, same store directory) picks the run up.
    const second = setup(new FileRunStore(directory));
    const restarted = await serve({ app: second.app, port: 0 });
    try {
      const inbox = (await (await fetch(`${restarted.url}/runs?status=interrupted`)).json()) as {
        runs: { run_id: string }[];
      };
      expect(inbox.runs.map((run) => run.run_id)).toEqual([paused.run_id]);
      const response = await fetch(`${restarted.url}/runs/${paused.run_id}/resume`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ decisions: { [paused.interrupts[0]?.id ?? ""]: { action: "approve" } } }),
      });
      expect(response.status).toBe(200);
      expect(first.refunds).toEqual([]);
      expect(second.refunds).toEqual(["A-1:500"]);
    } finally {
      await restarted.close();
    }
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
});
