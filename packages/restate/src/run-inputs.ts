import { type AnyComponent, fromDurableJSON, namedTypeName, Pipeline } from "@junction/core";
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

function decodeValue(schema: z.ZodType, value: unknown): unknown {
  if (value === null || value === undefined) return value;
  const inner = unwrap(schema);
  const name = namedTypeName(inner);
  if (name !== undefined) return decodeNamed(name, value);
  const def = inner._zod.def as { type: string; element?: z.ZodType };
  if (def.type === "array" && def.element !== undefined && Array.isArray(value)) {
    const element = def.element;
    return value.map((item) => decodeValue(element, item));
  }
  return value;
}

function decodeNamed(name: string, value: unknown): unknown {
  if (!isRecord(value) || Object.getPrototypeOf(value) !== Object.prototype) return value;
  try {
    return fromDurableJSON({ $junction: name, value });
  } catch {
    return value; // not a registered durable type: the run's validation reports it
  }
}

function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (;;) {
    const def = current._zod.def as { type: string; innerType?: z.ZodType };
    if ((def.type === "optional" || def.type === "default" || def.type === "nullable") && def.innerType)
      current = def.innerType;
    else return current;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
