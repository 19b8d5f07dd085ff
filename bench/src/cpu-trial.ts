/** Process CPU time (user + system) in microseconds. */
export function cpuMicros(): number {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
}

/**
 * CPU µs per unit of work: runs `run` until at least `minCpuMs` of CPU time has passed, checks each
 * result against `expected` (so a broken workload is never timed), and divides by runs × `unitsPerRun`.
 * The A/B scripts use CPU time because wall time on a shared machine includes waiting for a core.
 */
export async function cpuTrial(
  run: () => Promise<number>,
  options: { expected: number; unitsPerRun: number; minCpuMs: number },
): Promise<number> {
  const start = cpuMicros();
  let runs = 0;
  do {
    const value = await run();
    if (value !== options.expected)
      throw new Error(`workload returned ${value}, expected ${options.expected}`);
    runs += 1;
  } while (cpuMicros() - start < options.minCpuMs * 1000);
  return (cpuMicros() - start) / (runs * options.unitsPerRun);
}
