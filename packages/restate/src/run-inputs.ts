import { type AnyComponent, decodeNamedJSON, fromDurableJSON, Pipeline } from "@junction/core";
import type { z } from "zod";

/**
 * Turns the JSON body of a `run` request into run inputs: values of named socket types arrive as their
 * JSON (`{ "role": "user", "content": [{ "text": "Hi" }] }` for a `ChatMessage`) and become instances;
 * values written by `toDurableJSON` (tagged `$junction`) are read back. Everything else passes as is,
 * and the run validates it like any run.
 *
 * @param target - the pipeline (inputs nested by component, or flat by socket name) or the component
 * @param body - the request body
 */
export function decodeRunInputs(target: Pipeline | AnyComponent, body: unknown): Record<string, unknown> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return {};
  const inputs = fromDurableJSON(body) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(inputs)) {
    if (target instanceof Pipeline) {
      const nested = target.componentNames().includes(key) && isRecord(value);
      out[key] = nested ? decodeSockets(target.getComponent(key), value) : decodeFlat(target, key, value);
    } else {
      out[key] = decodeSocket(target, key, value);
    }
  }
  return out;
}

function decodeSockets(component: AnyComponent, values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [socket, value] of Object.entries(values)) out[socket] = decodeSocket(component, socket, value);
  return out;
}

function decodeFlat(pipeline: Pipeline, socket: string, value: unknown): unknown {
  for (const name of pipeline.componentNames()) {
    const component = pipeline.getComponent(name);
    if (Object.hasOwn(component.inputSockets, socket)) return decodeSocket(component, socket, value);
  }
  return value;
}

function decodeSocket(component: AnyComponent, socket: string, value: unknown): unknown {
  const sockets = component.inputSockets as Readonly<Record<string, { schema: z.ZodType }>>;
  if (!Object.hasOwn(sockets, socket)) return value;
  return decodeValue(sockets[socket]!.schema, value);
}

/** Named types' JSON becomes instances; a value that does not decode is left for the run's validation. */
function decodeValue(schema: z.ZodType, value: unknown): unknown {
  return decodeNamedJSON(schema, value, { source: "wire", onFailure: "pass" });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
