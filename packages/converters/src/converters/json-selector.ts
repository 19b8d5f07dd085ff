/**
 * The part of jq that `JSONConverter`'s `jqSchema` understands: paths. jq itself (a C library in Haystack)
 * is not available in JavaScript; paths cover what converters use it for (`.laureates[]`,
 * `.data.items[].text`). Anything else is refused when the component is built.
 *
 * Supported: `.` (the whole value), `.key`, `."key"`, `.["key"]`, `[n]` (negative counts from the end),
 * `[]` (every element of a list, every value of an object), chained: `.a.b[].c`, `.[0]`.
 */

/** One step of a selector. */
export type SelectorStep =
  | { readonly kind: "key"; readonly key: string }
  | { readonly kind: "index"; readonly index: number }
  | { readonly kind: "iterate" };

const identifier = /^[A-Za-z_][A-Za-z0-9_]*/;
const quoted = /^"(?:[^"\\]|\\.)*"/;
// One optional group holding its own trailing spaces (no two `\s*` side by side): linear on a long run of spaces.
const bracket = /^\[\s*(?:(?:(-?\d+)|("(?:[^"\\]|\\.)*"))\s*)?\]/;

/**
 * Parses a selector.
 *
 * @returns the steps
 * @throws Error saying where the selector leaves the supported syntax
 */
export function parseSelector(selector: string): SelectorStep[] {
  const text = selector.trim();
  if (!text.startsWith(".")) throw new Error('a selector starts with "." (for example ".items[]").');
  const steps: SelectorStep[] = [];
  let rest = text;
  while (rest !== "") {
    const position = text.length - rest.length;
    if (rest.startsWith(".")) {
      rest = rest.slice(1);
      const name = identifier.exec(rest) ?? quoted.exec(rest);
      if (name !== null) {
        const key = name[0].startsWith('"') ? (JSON.parse(name[0]) as string) : name[0];
        steps.push({ kind: "key", key });
        rest = rest.slice(name[0].length);
        continue;
      }
      if (rest === "" || rest.startsWith("[")) continue;
      throw unsupported(text, position);
    }
    const match = bracket.exec(rest);
    if (match === null) throw unsupported(text, position);
    if (match[1] !== undefined) steps.push({ kind: "index", index: Number(match[1]) });
    else if (match[2] !== undefined) steps.push({ kind: "key", key: JSON.parse(match[2]) as string });
    else steps.push({ kind: "iterate" });
    rest = rest.slice(match[0].length);
  }
  return steps;
}

function unsupported(text: string, position: number): Error {
  return new Error(
    `unsupported syntax at position ${position} ("${text.slice(position, position + 20)}"). Only paths are supported: ".", ".key", ".\\"key\\"", ".[\\"key\\"]", "[n]", "[]", chained (".a.b[].c").`,
  );
}

/**
 * Applies the steps to a parsed JSON value, with jq's semantics: a missing key or index gives `null`,
 * `[]` yields every element.
 *
 * @throws Error for jq's type errors (`Cannot index list with "key"`, `Cannot iterate over string`)
 */
export function applySelector(steps: readonly SelectorStep[], root: unknown): unknown[] {
  let values: unknown[] = [root];
  for (const step of steps) {
    const next: unknown[] = [];
    for (const value of values) {
      if (step.kind === "iterate") {
        // Loops, not push(...value): spreading a list of 100k+ items overflows the stack.
        if (Array.isArray(value)) for (const item of value) next.push(item);
        else if (isObject(value)) for (const item of Object.values(value)) next.push(item);
        else throw new Error(`Cannot iterate over ${kindOf(value)}`);
      } else if (value === null) {
        next.push(null);
      } else if (step.kind === "key") {
        if (!isObject(value)) throw new Error(`Cannot index ${kindOf(value)} with "${step.key}"`);
        next.push(Object.hasOwn(value, step.key) ? value[step.key] : null);
      } else {
        if (!Array.isArray(value)) throw new Error(`Cannot index ${kindOf(value)} with number`);
        const index = step.index < 0 ? value.length + step.index : step.index;
        next.push(index >= 0 && index < value.length ? value[index] : null);
      }
    }
    values = next;
  }
  return values;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "list";
  return typeof value === "object" ? "object" : typeof value;
}
