/** Small HTTP helpers for the Restate ingress. */

/** Calls a handler and returns its JSON result (throws with the body on an error status). */
export async function call(ingress: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${ingress}/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body ?? null),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${path}: ${response.status} ${text}`);
  return text === "" ? null : JSON.parse(text);
}

/** Starts a workflow run without waiting (`/send`). */
export async function send(ingress: string, workflow: string, runId: string, body: unknown): Promise<void> {
  const response = await fetch(`${ingress}/${workflow}/${runId}/run/send`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`send ${workflow}/${runId}: ${response.status} ${await response.text()}`);
}

/** Waits for a workflow run's result. */
export async function attach(ingress: string, workflow: string, runId: string): Promise<unknown> {
  const response = await fetch(`${ingress}/restate/workflow/${workflow}/${runId}/attach`);
  const text = await response.text();
  if (!response.ok) throw new Error(`attach ${workflow}/${runId}: ${response.status} ${text}`);
  return JSON.parse(text);
}

/** Polls `check` every 50 ms until it returns true (or fails after `timeoutMs`). */
export async function until(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
