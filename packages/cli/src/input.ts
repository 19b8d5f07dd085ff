import { readFileSync } from "node:fs";
import { CliError } from "./load.js";

/**
 * `--input name=value` → the request object. `value` is JSON when it parses as JSON, else the text
 * itself; `@path` reads the value from a file (JSON, or the text). `name` is a declared input, or
 * `component.socket` for the nested form.
 */
export function parseInputs(inputs: readonly string[]): Record<string, unknown> {
  const request: Record<string, unknown> = {};
  for (const input of inputs) {
    const equals = input.indexOf("=");
    if (equals <= 0)
      throw new CliError(`--input ${input}: write name=value (value: JSON, text, or @file).`, 2);
    const name = input.slice(0, equals);
    const raw = input.slice(equals + 1);
    let text = raw;
    if (raw.startsWith("@")) {
      try {
        text = readFileSync(raw.slice(1), "utf8");
      } catch {
        throw new CliError(`--input ${name}: cannot read the file ${raw.slice(1)}.`, 2);
      }
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      value = raw.startsWith("@") ? text.replace(/\r?\n$/, "") : text;
    }
    const dot = name.indexOf(".");
    if (dot === -1) request[name] = value;
    else {
      const component = name.slice(0, dot);
      request[component] ??= {};
      const group = request[component] as Record<string, unknown>;
      group[name.slice(dot + 1)] = value;
    }
  }
  return request;
}
