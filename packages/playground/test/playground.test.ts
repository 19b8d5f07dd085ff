import { MemoryRunStore } from "@junction/core";
import { createApp } from "@junction/serve";
import { describe, expect, test } from "vitest";
import { describeGraph, playgroundRoutes } from "../src/index.js";
import { agentPipeline, loopPipeline, refundPipeline } from "./fixtures.js";

function app() {
  return createApp({
    pipelines: { loop: loopPipeline(), agent: agentPipeline() },
    routes: playgroundRoutes(),
  });
}

/** Reads an SSE body into `{ event, data }` records. */
async function events(response: Response): Promise<{ event: string; data: any }[]> {
  const text = await response.text();
  return text
    .split("\n\n")
    .filter((block) => block.includes("data:"))
    .map((block) => {
      const event = /^event: ?(.*)$/m.exec(block)?.[1] ?? "message";
      const data = block
        .split("\n")
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).replace(/^ /, ""))
        .join("\n");
      return { event, data: JSON.parse(data) };
    });
}

describe("describeGraph", () => {
  test("lays components out in layers and marks the edge that closes a loop", () => {
    const graph = describeGraph(loopPipeline());
    expect(graph.nodes.map((node) => [node.name, node.layer, node.kind])).toEqual([
      ["entry", 0, "joiner"],
      ["add", 1, "component"],
      ["router", 2, "router"],
    ]);
    expect(graph.edges.filter((edge) => edge.loop)).toEqual([
      { sender: "router.again", receiver: "entry.value", loop: true },
    ]);
  });

  test("lists each socket with a readable type, and which inputs a run gives", () => {
    const add = describeGraph(loopPipeline()).nodes.find((node) => node.name === "add")!;
    expect(add.inputs).toEqual([
      { name: "value", type: "number", mandatory: true, variadic: "none", open: false },
      { name: "add", type: "number", mandatory: false, variadic: "none", open: true },
    ]);
    expect(add.outputs).toEqual([{ name: "result", type: "number" }]);
    const agent = describeGraph(agentPipeline()).nodes[0]!;
    expect(agent.kind).toBe("agent");
    expect(agent.outputs.find((socket) => socket.name === "messages")?.type).toBe("ChatMessage[]");
  });
});

describe("playground routes", () => {
  test("serve the page with a policy that allows this server only", async () => {
    const response = await app().request("http://127.0.0.1/playground/");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/html");
    const policy = response.headers.get("content-security-policy") ?? "";
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("connect-src 'self'");
    const html = await response.text();
    expect(html).not.toMatch(/https?:\/\//);
    const script = await app().request("http://127.0.0.1/playground/app.js");
    expect(script.headers.get("content-type")).toContain("javascript");
    expect(await script.text()).not.toMatch(/https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
    expect((await app().request("http://127.0.0.1/playground/secret.txt")).status).toBe(404);
  });

  test("a streamed run carries component events, spans with parents, the plan and a summary", async () => {
    const served = app();
    const response = await served.request("http://127.0.0.1/playground/api/pipelines/agent/stream", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ agent: { messages: [{ role: "user", content: [{ text: "Paris?" }] }] } }),
    });
    expect(response.status).toBe(200);
    const stream = await events(response);
    const names = stream.map((item) => item.event);
    expect(names[0]).toBe("run_start");
    expect(names.at(-1)).toBe("run_summary");
    expect(stream.at(-1)?.data.status).toBe("completed");
    const ends = stream.filter((item) => item.event === "component_end").map((item) => item.data.component);
    expect(ends).toEqual(["agent", "router"]);
    const router = stream.find((item) => item.event === "component_end" && item.data.component === "router");
    expect(Object.keys(router?.data.outputs)).toEqual(["answer"]);
    const spans = stream.filter((item) => item.event === "span_end").map((item) => item.data);
    const tools = spans.filter((span) => span.name === "junction.agent.tool");
    expect(tools.map((span) => span.tags["junction.tool.name"]).sort()).toEqual(["clock", "weather"]);
    // Parallel tool calls are siblings under their agent step, and the step carries the plan.
    const step = spans.find((span) => span.id === tools[0].parent);
    expect(step?.name).toBe("junction.agent.step");
    expect(tools[1].parent).toBe(step?.id);
    expect(step?.tags["junction.agent.tool_plan"]).toEqual([
      [
        { index: 0, tool: "weather", call_id: "call_w" },
        { index: 1, tool: "clock", call_id: "call_c" },
      ],
    ]);
    const text = stream
      .filter((item) => item.event === "chunk")
      .map((item) => item.data.chunk.content)
      .join("");
    expect(text).toContain("It is sunny and noon in Paris.");

    const list = (await (await served.request("http://127.0.0.1/playground/api/runs")).json()) as {
      runs: { id: string }[];
    };
    expect(list.runs[0]).toMatchObject({ pipeline: "agent", status: "completed" });
    const recorded = (await (
      await served.request(`http://127.0.0.1/playground/api/runs/${list.runs[0]!.id}`)
    ).json()) as { spans: { end: number | null }[] };
    expect(recorded.spans.length).toBe(spans.length);
    expect(recorded.spans.every((span: { end: number | null }) => span.end !== null)).toBe(true);
  });

  test("invalid input ends the stream with the validation error; an unknown pipeline is a 404 naming it", async () => {
    const served = app();
    const bad = await served.request("http://127.0.0.1/playground/api/pipelines/loop/stream", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ entry: { value: "three" } }),
    });
    const stream = await events(bad);
    const error = stream.find((item) => item.event === "error");
    expect(error?.data.type).toBe("PipelineValidationError");
    expect(error?.data.message).toContain("entry.value");
    expect(stream.at(-1)?.data.status).toBe("failed");
    const notJSON = await served.request("http://127.0.0.1/playground/api/pipelines/loop/stream", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{",
    });
    expect(notJSON.status).toBe(400);
    const missing = await served.request("http://127.0.0.1/playground/api/pipelines/nope/graph");
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { message: string } }).error.message).toContain('"nope"');
  });

  test("the loop pipeline's run lights each visit and records the route taken", async () => {
    const response = await app().request("http://127.0.0.1/playground/api/pipelines/loop/stream", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ entry: { value: 0 } }),
    });
    const stream = await events(response);
    const visits = stream
      .filter((item) => item.event === "component_end" && item.data.component === "router")
      .map((item) => Object.keys(item.data.outputs)[0]);
    expect(visits).toEqual(["again", "again", "done"]);
    expect(stream.find((item) => item.event === "run_end")?.data.outputs).toEqual({ router: { done: 3 } });
  });
});

test("with a store, a run that needs approval is recorded as interrupted and waits in the inbox", async () => {
  const server = createApp({
    pipelines: { refunds: refundPipeline() },
    routes: playgroundRoutes(),
    store: new MemoryRunStore(),
  });
  const response = await server.request("http://127.0.0.1/playground/api/pipelines/refunds/stream", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ messages: [{ role: "user", content: "Refund A-1" }] }),
  });
  const streamed = await events(response);
  const interrupt = streamed.find((item) => item.event === "interrupt")?.data;
  expect(interrupt.interrupts.map((item: { tool: string }) => item.tool)).toEqual(["refund"]);
  expect(streamed.at(-1)).toMatchObject({ event: "run_summary", data: { status: "interrupted" } });
  const inbox = (await (await server.request("http://127.0.0.1/runs?status=interrupted")).json()) as {
    runs: { run_id: string }[];
  };
  expect(inbox.runs.map((run: { run_id: string }) => run.run_id)).toEqual([interrupt.run_id]);
});

test("Recent runs shows an interrupted run as completed once it was approved and finished", async () => {
  const server = createApp({
    pipelines: { refunds: refundPipeline() },
    routes: playgroundRoutes(),
    store: new MemoryRunStore(),
  });
  const response = await server.request("http://127.0.0.1/playground/api/pipelines/refunds/stream", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ messages: [{ role: "user", content: "Refund A-1" }] }),
  });
  const interrupt = (await events(response)).find((item) => item.event === "interrupt")?.data;
  const recent = async () =>
    (
      (await (await server.request("http://127.0.0.1/playground/api/runs")).json()) as {
        runs: { status: string }[];
      }
    ).runs;
  expect((await recent()).map((run) => run.status)).toEqual(["interrupted"]);
  const decisions = Object.fromEntries(
    interrupt.interrupts.map((item: { id: string }) => [item.id, { action: "approve" }]),
  );
  const resumed = await server.request(`http://127.0.0.1/runs/${interrupt.run_id}/resume`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ decisions }),
  });
  expect(resumed.status).toBe(200);
  expect((await recent()).map((run) => run.status)).toEqual(["completed"]);
});
