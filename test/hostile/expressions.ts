/**
 * The hostile-expression corpus: CEL that an attacker (or a careless editor) could put in a
 * `ConditionalRouter` route or an `OutputAdapter`, with the inputs that make it expensive. Each one must
 * be refused when the component is built, or fail (or succeed) quickly at run time with a bounded
 * message; none may block the event loop. `scripts/measure-hostile-expressions.ts` times each one.
 */

/** Where the expression goes. */
export type ExpressionSite = "condition" | "output" | "adapter";

/** What must happen. */
export type ExpressionExpectation =
  /** Building the component fails with a message matching this. */
  | { readonly refused: RegExp }
  /** Running fails with a message matching this. */
  | { readonly fails: RegExp }
  /** Running succeeds with this output value. */
  | { readonly returns: unknown };

/** One corpus entry. A router gets a second, catch-all route `"fallback"`, so a false condition is no error. */
export interface ExpressionCase {
  readonly name: string;
  readonly site: ExpressionSite;
  /** The expression (built lazily for large ones). */
  readonly expression: () => string;
  /** The inputs (built lazily). */
  readonly inputs: () => Record<string, unknown>;
  readonly expect: ExpressionExpectation;
  /** What found it (the issue item). */
  readonly foundBy: string;
}

const digits = "[0,1,2,3,4,5,6,7,8,9]";

/** `depth` nested `all` comprehensions over a 10-element list literal: 10^depth steps. */
function nestedAll(depth: number): string {
  const names = Array.from({ length: depth }, (_, index) => `v${index}`);
  let body = `${names.join(" + ")} >= 0`;
  for (const name of [...names].reverse()) body = `${digits}.all(${name}, ${body})`;
  return body;
}

/** `count` chained `cel.bind`s that each double a string. */
function doublingBinds(count: number): string {
  let body = `size(s${count}) > 0`;
  for (let index = count; index >= 1; index -= 1)
    body = `cel.bind(s${index}, s${index - 1} + s${index - 1}, ${body})`;
  return `cel.bind(s0, text, ${body})`;
}

const thirtyA = `${"a".repeat(30)}!`;

/** The corpus. */
export const expressionCases: readonly ExpressionCase[] = [
  {
    name: "nested quantifier regex in a condition (catastrophic backtracking in RegExp)",
    site: "condition",
    expression: () => 'text.matches("^(a+)+$")',
    inputs: () => ({ text: thirtyA }),
    expect: { returns: false },
    foundBy: "#14 item 1",
  },
  {
    name: "alternation regex in an output",
    site: "output",
    expression: () => 'text.matches("^(a|aa)*$")',
    inputs: () => ({ text: `${"a".repeat(60)}!` }),
    expect: { returns: false },
    foundBy: "#14 item 1",
  },
  {
    name: "nested quantifier regex in an OutputAdapter",
    site: "adapter",
    expression: () => 'text.matches("(x+x+)+y")',
    inputs: () => ({ text: "x".repeat(30) }),
    expect: { returns: false },
    foundBy: "#14 item 1",
  },
  {
    name: "regex pattern taken from the input",
    site: "condition",
    expression: () => "text.matches(pattern)",
    inputs: () => ({ text: thirtyA, pattern: "^(a+)+$" }),
    expect: { returns: false },
    foundBy: "#14 item 1",
  },
  {
    name: "backreference is refused when the router is built",
    site: "condition",
    expression: () => 'text.matches("(a)\\\\1")',
    inputs: () => ({ text: "aa" }),
    expect: { refused: /route 0 \("out"\).*\(a\)\\\\1.*backreference/s },
    foundBy: "#14 item 1",
  },
  {
    name: "lookahead is refused when the router is built",
    site: "output",
    expression: () => 'text.matches("^(?=a)a")',
    inputs: () => ({ text: "a" }),
    expect: { refused: /route 0 \("out"\).*\(\?=a\).*lookaround/s },
    foundBy: "#14 item 1",
  },
  {
    name: "lookbehind in an input pattern fails the run",
    site: "condition",
    expression: () => "text.matches(pattern)",
    inputs: () => ({ text: "ab", pattern: "(?<=a)b" }),
    expect: { fails: /lookaround/ },
    foundBy: "#14 item 1",
  },
  {
    name: "eight nested comprehensions over list literals (10^8 steps)",
    site: "condition",
    expression: () => nestedAll(8),
    inputs: () => ({}),
    expect: { refused: /worst-case cost.*limits\.maxCost/s },
    foundBy: "#14 item 2",
  },
  {
    name: "nested comprehensions over an input list (10^12 steps)",
    site: "condition",
    expression: () => "items.all(a, items.all(b, items.all(c, a + b + c >= 0)))",
    inputs: () => ({ items: Array.from({ length: 10_000 }, (_, index) => index) }),
    expect: { fails: /limits\.maxSteps/ },
    foundBy: "#14 item 2",
  },
  {
    name: "nested map over a bound 1000-element list literal (10^9 elements built)",
    site: "adapter",
    expression: () =>
      `cel.bind(l, [${Array.from({ length: 1000 }, (_, index) => index)}], l.map(x, l.map(y, l.map(z, 1))))`,
    inputs: () => ({}),
    expect: { refused: /limits\.maxCost/ },
    foundBy: "#14 item 2",
  },
  {
    name: "nested map over an input list (10^9 elements built)",
    site: "output",
    expression: () => "l.map(x, l.map(y, l.map(z, 1)))",
    inputs: () => ({ l: Array.from({ length: 1000 }, (_, index) => index) }),
    expect: { fails: /limits\.maxSteps/ },
    foundBy: "#14 item 2",
  },
  {
    name: "string doubled forty times by chained binds",
    site: "condition",
    expression: () => doublingBinds(40),
    inputs: () => ({ text: "0123456789" }),
    expect: { fails: /limits\.maxSteps/ },
    foundBy: "#14 item 2",
  },
  {
    name: "exists over a large input with an error on every element",
    site: "condition",
    expression: () => "items.exists(x, x / 0 == 1)",
    inputs: () => ({ items: Array.from({ length: 1_000_000 }, (_, index) => index) }),
    expect: { fails: /maxSteps|division by zero/ },
    foundBy: "#14 item 2",
  },
  {
    name: "size() of a list of a million numbers",
    site: "condition",
    expression: () => "size(items) > 100000",
    inputs: () => ({ items: Array.from({ length: 1_000_000 }, (_, index) => index) }),
    expect: { returns: true },
    foundBy: "#14 item 6",
  },
  {
    name: "one field of a large document",
    site: "adapter",
    expression: () => "docs[999999].id",
    inputs: () => ({ docs: Array.from({ length: 1_000_000 }, (_, id) => ({ id, content: "x" })) }),
    expect: { returns: 999_999 },
    foundBy: "#14 item 6",
  },
  {
    name: "expression of 100,000 terms",
    site: "condition",
    expression: () => `x == ${Array(100_000).fill("1").join(" + ")}`,
    inputs: () => ({ x: 1 }),
    expect: { refused: /maxAstNodes/ },
    foundBy: "#14 item 3",
  },
  {
    name: "a 50 MB string compared with the wrong type",
    site: "condition",
    expression: () => "text > 1",
    inputs: () => ({ text: "x".repeat(50_000_000) }),
    expect: { fails: /no such overload|found no matching overload/i },
    foundBy: "#14 item 3",
  },
];
