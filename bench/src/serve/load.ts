/**
 * `pnpm bench:serve`: load on Junction's HTTP server from a second process, over loopback.
 *
 * 1. Throughput and latency: a one-component pipeline (add one to a number) behind
 *    `POST /pipelines/add/run`, the same pipeline run by a bare Hono handler (`pipeline.run` by hand), and
 *    a bare handler doing the arithmetic alone, driven alternately by this process with a fixed number of
 *    keep-alive connections; requests per second, p50 and p99, and the server's CPU time per request
 *    (read from the server before and after each batch; steadier than req/s on a shared machine).
 * 2. Many streams: 1,000 concurrent `POST /pipelines/wait/stream` SSE requests held open (heartbeats
 *    flowing) while the server's memory is sampled, then released; memory after they end.
 *
 * Usage: tsx --conditions=@junction/source bench/src/serve/load.ts [--seconds 10] [--rounds 10] [--connections 50] [--streams 1000]
 */
import { spawn } from "node:child_process";
import { Agent, request } from "node:http";
import { join } from "node:path";
import { createInterface } from "node:readline";

const argv = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const index = argv.indexOf(`--${name}`);
  return index >= 0 ? Number(argv[index + 1]) : fallback;
};
const seconds = option("seconds", 10);
const connections = option("connections", 50);
const streams = option("streams", 1000);

const child = spawn(
  process.execPath,
  ["--expose-gc", "--conditions=@junction/source", "--import", "tsx", join(import.meta.dirname, "server.ts")],
  { stdio: ["ignore", "pipe", "inherit"] },
);
const ports = await new Promise<{ junction: number; bare: number }>((resolve) => {
  createInterface({ input: child.stdout }).once("line", (line) => resolve(JSON.parse(line)));
});

const agent = new Agent({ keepAlive: true, maxSockets: connections });

function once(port: number, path: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path,
        method: "POST",
        agent,
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on("end", () => {
          if (res.statusCode !== 200) reject(new Error(`status ${res.statusCode}`));
          else resolve(Number(process.hrtime.bigint() - started) / 1e6);
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

async function serverCPU(): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port: ports.junction, path: "/bench/cpu", method: "GET", agent },
      (res) => {
        let text = "";
        res.on("data", (chunk: Buffer) => {
          text += chunk.toString();
        });
        res.on("end", () => resolve((JSON.parse(text) as { micros: number }).micros));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

async function drive(port: number, path: string, durationMs: number) {
  const latencies: number[] = [];
  const end = Date.now() + durationMs;
  const body = JSON.stringify({ value: 1 });
  const cpuBefore = await serverCPU();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < end) latencies.push(await once(port, path, body));
    }),
  );
  const cpu = ((await serverCPU()) - cpuBefore) / latencies.length;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { rps: latencies.length / (durationMs / 1000), p50: at(0.5), p99: at(0.99), cpu };
}

const targets = [
  { name: "bare Hono, arithmetic only", port: ports.bare, path: "/run" },
  { name: "bare Hono + pipeline.run", port: ports.bare, path: "/run-pipeline" },
  { name: "Junction /pipelines/add/run", port: ports.junction, path: "/pipelines/add/run" },
];
for (const target of targets) await drive(target.port, target.path, 1000); // warm-up
const rounds = option("rounds", 10);
const results = new Map<string, { rps: number[]; p50: number[]; p99: number[]; cpu: number[] }>();
for (let round = 0; round < rounds; round += 1) {
  for (const target of round % 2 === 0 ? targets : [...targets].reverse()) {
    const result = await drive(target.port, target.path, (seconds * 1000) / rounds);
    const entry = results.get(target.name) ?? { rps: [], p50: [], p99: [], cpu: [] };
    entry.rps.push(result.rps);
    entry.p50.push(result.p50);
    entry.p99.push(result.p99);
    entry.cpu.push(result.cpu);
    results.set(target.name, entry);
  }
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
console.log(
  `\nthroughput: ${connections} keep-alive connections, ${seconds} s per target (${rounds} alternating rounds, medians; CPU also the best round)`,
);
const rows = [...results].map(([name, entry]) => ({
  name,
  rps: median(entry.rps),
  p50: median(entry.p50),
  p99: median(entry.p99),
  cpu: median(entry.cpu),
  cpuBest: Math.min(...entry.cpu),
}));
for (const row of rows) {
  console.log(
    `  ${row.name.padEnd(30)} ${row.rps.toFixed(0).padStart(7)} req/s   p50 ${row.p50.toFixed(2)} ms   p99 ${row.p99.toFixed(2)} ms   server CPU ${row.cpu.toFixed(0)} µs/req (best ${row.cpuBest.toFixed(0)})`,
  );
}
const pipelineRounds = results.get("bare Hono + pipeline.run");
const junctionRounds = results.get("Junction /pipelines/add/run");
if (pipelineRounds && junctionRounds) {
  // Each round's two targets ran next to each other, under the same load from the rest of the machine:
  // the median of the per-round ratios is steadier than the ratio of the medians.
  const perRound = (pick: (index: number) => number) =>
    median(Array.from({ length: rounds }, (_, index) => pick(index) * 100));
  const throughput = perRound((i) => (junctionRounds.rps[i] ?? 0) / (pipelineRounds.rps[i] ?? 1));
  const cpu = perRound((i) => (pipelineRounds.cpu[i] ?? 0) / (junctionRounds.cpu[i] ?? 1));
  const best = (Math.min(...pipelineRounds.cpu) / Math.min(...junctionRounds.cpu)) * 100;
  console.log(
    `  Junction / bare + pipeline.run (median of per-round ratios): ${throughput.toFixed(0)} % of the throughput, ${cpu.toFixed(0)} % by CPU per request (best rounds: ${best.toFixed(0)} %)`,
  );
}

// Many concurrent SSE streams.
const streamAgent = new Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
const get = async (path: string, method = "GET") =>
  new Promise<unknown>((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port: ports.junction, path, method, agent: streamAgent },
      (res) => {
        let text = "";
        res.on("data", (chunk: Buffer) => {
          text += chunk.toString();
        });
        res.on("end", () => resolve(JSON.parse(text)));
      },
    );
    req.on("error", reject);
    req.end();
  });
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const before = (await get("/bench/memory")) as { rss: number; heapUsed: number };
let started = 0;
let finished = 0;
let allStarted: () => void = () => undefined;
const startedPromise = new Promise<void>((resolve) => {
  allStarted = resolve;
});
const opened = Date.now();
const ends = Array.from(
  { length: streams },
  () =>
    new Promise<void>((resolve, reject) => {
      const body = JSON.stringify({ value: 1 });
      const req = request(
        {
          host: "127.0.0.1",
          port: ports.junction,
          path: "/pipelines/wait/stream",
          method: "POST",
          agent: streamAgent,
          headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
        },
        (res) => {
          let seen = false;
          let text = "";
          res.on("data", (chunk: Buffer) => {
            text += chunk.toString();
            if (!seen && text.includes("event: component_start")) {
              seen = true;
              started += 1;
              if (started === streams) allStarted();
            }
          });
          res.on("end", () => {
            if (text.includes("event: run_end")) finished += 1;
            resolve();
          });
        },
      );
      req.on("error", reject);
      req.end(body);
    }),
);
await startedPromise;
const openMs = Date.now() - opened;
await new Promise((resolve) => setTimeout(resolve, 2500)); // heartbeats flow
const held = (await get("/bench/memory")) as { rss: number; heapUsed: number };
await get("/bench/release", "POST");
await Promise.all(ends);
await new Promise((resolve) => setTimeout(resolve, 500));
const after = (await get("/bench/memory")) as { rss: number; heapUsed: number };
console.log(
  `\n${streams} concurrent SSE streams (open in ${openMs} ms, held 2.5 s with heartbeats every 1 s)`,
);
console.log(
  `  server heap: ${mb(before.heapUsed)} before, ${mb(held.heapUsed)} with all open (${((held.heapUsed - before.heapUsed) / streams / 1024).toFixed(1)} KB per stream), ${mb(after.heapUsed)} after they ended`,
);
console.log(`  server RSS:  ${mb(before.rss)} before, ${mb(held.rss)} with all open, ${mb(after.rss)} after`);
console.log(`  streams that ended with run_end: ${finished} / ${streams}`);

agent.destroy();
streamAgent.destroy();
child.kill();
