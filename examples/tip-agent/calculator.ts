/**
 * A safe arithmetic evaluator for the demo's `calculator` tool: numbers, `+ - * /`, `%` as "percent of"
 * when written after a number (`10% * 85`), parentheses and unary minus. It parses the text itself — no
 * `eval`, no `Function` — so a model cannot run code through it.
 *
 * (CEL, used by the routers, is not a fit here: its strict typing rejects `85 * 0.1` as int × double.)
 */

type Token = { kind: "number"; value: number } | { kind: "op"; value: string };

function tokenize(expression: string): Token[] {
  const tokens: Token[] = [];
  const pattern = /\s*(?:(\d+(?:\.\d+)?|\.\d+)|([-+*/()%]))/y;
  let position = 0;
  const source = expression.replace(/€|\$|,(?=\d{3}\b)/g, "").trim();
  while (position < source.length) {
    pattern.lastIndex = position;
    const match = pattern.exec(source);
    if (match === null)
      throw new Error(`Unexpected character at position ${position + 1} in "${expression}".`);
    if (match[1] !== undefined) tokens.push({ kind: "number", value: Number(match[1]) });
    else tokens.push({ kind: "op", value: match[2]! });
    position = pattern.lastIndex;
  }
  return tokens;
}

/**
 * Evaluates an arithmetic expression.
 * @param expression - e.g. `"85 * 0.10"` or `"(85 * 5%) + 85"`
 * @returns the value, rounded to 10 decimal places to hide binary floating-point noise
 */
export function calculate(expression: string): number {
  const tokens = tokenize(expression);
  let index = 0;
  const peek = () => tokens[index];
  const take = () => tokens[index++];

  function primary(): number {
    const token = take();
    if (token === undefined) throw new Error(`Unexpected end of expression "${expression}".`);
    if (token.kind === "number") {
      if (peek()?.kind === "op" && peek()?.value === "%") {
        index += 1;
        return token.value / 100;
      }
      return token.value;
    }
    if (token.value === "-") return -primary();
    if (token.value === "+") return primary();
    if (token.value === "(") {
      const value = sum();
      const closing = take();
      if (closing?.kind !== "op" || closing.value !== ")") throw new Error(`Missing ")" in "${expression}".`);
      return value;
    }
    throw new Error(`Unexpected "${token.value}" in "${expression}".`);
  }

  function product(): number {
    let value = primary();
    for (
      let next = peek();
      next?.kind === "op" && (next.value === "*" || next.value === "/");
      next = peek()
    ) {
      index += 1;
      const right = primary();
      if (next.value === "/" && right === 0) throw new Error("Division by zero.");
      value = next.value === "*" ? value * right : value / right;
    }
    return value;
  }

  function sum(): number {
    let value = product();
    for (
      let next = peek();
      next?.kind === "op" && (next.value === "+" || next.value === "-");
      next = peek()
    ) {
      index += 1;
      const right = product();
      value = next.value === "+" ? value + right : value - right;
    }
    return value;
  }

  if (tokens.length === 0) throw new Error("The expression is empty.");
  const value = sum();
  if (index < tokens.length)
    throw new Error(`Unexpected "${String(tokens[index]?.value)}" in "${expression}".`);
  return Math.round(value * 1e10) / 1e10;
}
