/**
 * Fails any test that writes to the console without saying so.
 *
 * Library code must report through the pluggable logger, never `console`. A test that expects console
 * output replaces the method with `vi.spyOn(console, "warn").mockImplementation(() => {})`, which takes
 * precedence over this guard.
 */
import { afterEach, beforeEach } from "vitest";

const methods = ["log", "info", "warn", "error", "debug", "trace"] as const;
type Method = (typeof methods)[number];

const originals = new Map<Method, (...args: unknown[]) => void>();
let unexpected: string[] = [];

beforeEach(() => {
  unexpected = [];
  for (const method of methods) {
    originals.set(method, console[method]);
    console[method] = (...args: unknown[]) => {
      unexpected.push(`console.${method}: ${args.map((arg) => String(arg)).join(" ")}`);
    };
  }
});

afterEach(() => {
  for (const [method, original] of originals) console[method] = original;
  originals.clear();
  if (unexpected.length > 0) {
    const lines = unexpected.join("\n");
    unexpected = [];
    throw new Error(`The test wrote to the console unexpectedly:\n${lines}`);
  }
});
