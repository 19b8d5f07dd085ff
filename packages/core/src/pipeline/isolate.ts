/**
 * Copies a value so that a component mutating what it received cannot change the caller's data or what
 * another component receives. Plain objects, arrays, maps, sets and dates are copied (cycles kept);
 * class instances (immutable by convention, e.g. `ChatMessage`), functions and components are shared.
 */
export function isolate<T>(value: T): T {
  if (typeof value !== "object" || value === null) return value;
  return copy(value, new Map()) as T;
}

function copy(value: unknown, seen: Map<object, unknown>): unknown {
  if (typeof value !== "object" || value === null) return value;
  const existing = seen.get(value);
  if (existing !== undefined) return existing;
  if (Array.isArray(value)) {
    const out: unknown[] = new Array(value.length);
    seen.set(value, out);
    for (let index = 0; index < value.length; index += 1) out[index] = copy(value[index], seen);
    return out;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype === Object.prototype || prototype === null) {
    const out: Record<string, unknown> = prototype === null ? Object.create(null) : {};
    seen.set(value, out);
    for (const key of Object.keys(value)) out[key] = copy((value as Record<string, unknown>)[key], seen);
    return out;
  }
  if (value instanceof Map) {
    const out = new Map();
    seen.set(value, out);
    for (const [key, item] of value) out.set(key, copy(item, seen));
    return out;
  }
  if (value instanceof Set) {
    const out = new Set();
    seen.set(value, out);
    for (const item of value) out.add(copy(item, seen));
    return out;
  }
  if (value instanceof Date) return new Date(value.getTime());
  return value;
}
