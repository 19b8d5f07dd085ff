import { readFileSync } from "node:fs";
import type { PipelineIO } from "@junction/core";
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

/**
 * For a pipeline without declared inputs, an input given without its component (`-i messages=…`)
 * cannot be placed: a usage error naming the `component.socket` spellings that would, and the inputs
 * there are when no socket has that name.
 */
export function checkNestedInputs(request: Record<string, unknown>, io: PipelineIO, file: string): void {
  if (io.declaredInputs) return;
  const components = new Set(io.inputs.map((field) => field.path[0]));
  for (const name of Object.keys(request)) {
    if (components.has(name)) continue;
    const matches = io.inputs.filter((field) => field.path[1] === name).map((field) => field.path.join("."));
    const known = io.inputs.map((field) => field.path.join("."));
    throw new CliError(
      matches.length > 0
        ? `--input ${name}: ${file} takes its inputs as component.socket; write ${matches.map((match) => `-i ${match}=…`).join(" or ")}.`
        : `--input ${name}: ${file} has no input or component named "${name}". Its inputs: ${known.join(", ") || "none"} (write -i component.socket=value).`,
      2,
    );
  }
}
