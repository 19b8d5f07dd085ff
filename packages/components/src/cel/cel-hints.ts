import { didYouMean, excerpt } from "@junction/core";

/**
 * Hints appended to CEL errors, naming the fix for the slips people make coming from Python or Jinja
 * (`and`, `or`, `not`, `=`, `{{ x }}`, `True`), for int/double mix-ups (`double(value)`), and for
 * missing map keys (the keys that exist, and `has()`).
 */

/** The source with string literals blanked, so words inside strings are not mistaken for operators. */
function code(source: string): string {
  return source.replace(/("""[\s\S]*?"""|'''[\s\S]*?'''|"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*')/g, (literal) =>
    " ".repeat(literal.length),
  );
}

const slips: readonly { readonly pattern: { test(text: string): boolean }; readonly hint: string }[] = [
  { pattern: /\band\b/, hint: "CEL writes `and` as `&&`" },
  { pattern: /\bor\b/, hint: "CEL writes `or` as `||`" },
  { pattern: /\bnot\b/, hint: "CEL writes `not x` as `!x`" },
  { pattern: /\bis\s+None\b|\bis\s+not\s+None\b/, hint: "CEL writes `x is None` as `x == null`" },
  { pattern: /(^|[^=!<>])=(?!=)/, hint: "CEL compares with `==` (a single `=` is not an operator)" },
  {
    pattern: /\{\{|\}\}/,
    hint: "a CEL expression is not a template: write the variable without `{{ }}` (`x == 1`, not `{{ x }} == 1`)",
  },
  {
    pattern: /\bTrue\b|\bFalse\b|\bNone\b/,
    hint: "CEL spells the literals `true`, `false` and `null` in lower case",
  },
  { pattern: { test: pythonConditional }, hint: "CEL writes a conditional as `cond ? a : b`" },
];

/**
 * True for `elif`, or `if` followed by `else` on one line. Not `/\bif\b.*\belse\b/`: that pattern
 * scans to the end of the line from every `if`, quadratic on a long expression of `if`s (11 s for
 * 80,000 of them, in an error message's hint).
 */
function pythonConditional(text: string): boolean {
  if (/\belif\b/.test(text)) return true;
  for (const line of text.split("\n")) {
    const found = /\bif\b/.exec(line);
    if (found !== null && /\belse\b/.test(line.slice(found.index + 2))) return true;
  }
  return false;
}

/** Hints for Python/Jinja spellings found in an expression that failed to compile (empty when none). */
export function slipHints(source: string): string[] {
  const text = code(source);
  return slips.filter((slip) => slip.pattern.test(text)).map((slip) => `${slip.hint}.`);
}

/** The variables named like Python's literals (`True`, `False`, `None`): a slip, not an input. */
export function pythonLiteralVariables(variables: readonly string[]): string[] {
  return variables.filter((name) => name === "True" || name === "False" || name === "None");
}

/** The identifier (or dotted path) starting at the caret of a CEL error message, if any. */
function operandAtCaret(message: string): string | undefined {
  const lines = message.split("\n");
  for (let index = 0; index + 1 < lines.length; index += 1) {
    const source = /^(> *\d+ \| )(.*)$/.exec(lines[index]!);
    const caret = lines[index + 1]!;
    if (source === null || caret.trimStart() !== "^") continue;
    const column = caret.length - 1 - source[1]!.length;
    const match = /^[A-Za-z_][\w.]*/.exec(source[2]!.slice(column));
    return match?.[0];
  }
  return undefined;
}

/**
 * The conversion to suggest for a `no such overload` between numeric kinds (`dyn<int> + double`):
 * CEL never mixes int, uint and double implicitly.
 */
export function overloadHint(message: string): string | undefined {
  const match = /no such overload: (?:dyn<)?(int|uint|double)>? (\S+) (?:dyn<)?(int|uint|double)>?/.exec(
    message,
  );
  if (match === null || match[1] === match[3]) return undefined;
  const [, left, operator, right] = match;
  const target = left === "double" || right === "double" ? "double" : "int";
  const converted = left === target ? "right" : "left";
  const operand = converted === "left" ? (operandAtCaret(message) ?? "value") : "value";
  return `CEL does not mix ${left} and ${right} in \`${operator}\`: convert the ${converted} side, e.g. \`${target}(${operand})\`${target === "double" ? ", or write the number with a decimal point (2.0)" : ""}.`;
}

/** Resolves a dotted path (`x.a.b`) in the inputs, for listing the keys of the map a lookup missed. */
function resolve(inputs: Readonly<Record<string, unknown>>, path: string): unknown {
  let value: unknown = inputs;
  for (const part of path.split(".")) {
    if (value instanceof Map) value = value.get(part);
    else if (typeof value === "object" && value !== null && Object.hasOwn(value, part))
      value = (value as Record<string, unknown>)[part];
    else return undefined;
  }
  return value;
}

function keysOf(value: unknown): string[] | undefined {
  if (value instanceof Map) return [...value.keys()].map(String);
  if (typeof value === "object" && value !== null && !Array.isArray(value)) return Object.keys(value);
  return undefined;
}

/**
 * For `No such key: k`: the keys the map has (found by resolving the expression that was indexed in
 * the inputs), a did-you-mean, and how to guard an optional key. `undefined` for other errors.
 */
export function missingKeyHint(
  message: string,
  source: string,
  inputs: Readonly<Record<string, unknown>>,
): string | undefined {
  const match = /No such key: (.*)/.exec(message);
  if (match === null) return undefined;
  const key = match[1]!.trim();
  const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const lookup = new RegExp(
    `([A-Za-z_][\\w.]*?)\\s*(?:\\.\\s*${escaped}\\b|\\[\\s*["']${escaped}["']\\s*\\])`,
  ).exec(source);
  const keys = lookup === null ? undefined : keysOf(resolve(inputs, lookup[1]!));
  const where = lookup === null ? "the map" : `"${excerpt(lookup[1]!)}"`;
  const available =
    keys === undefined
      ? ""
      : ` ${where} has the keys ${keys.map((name) => `"${excerpt(name)}"`).join(", ") || "(none)"}.${didYouMean(key, keys)}`;
  const guard = lookup === null ? "has(x.field)" : `has(${lookup[1]}.${key})`;
  return `${where} has no key "${excerpt(key)}".${available} If the key is optional, guard it with ${guard} or read it with ${lookup?.[1] ?? "x"}.?${key}.orValue(default).`;
}
