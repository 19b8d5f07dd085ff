/**
 * A tiny subset of Jinja2, enough to render the reference scenarios' prompt templates verbatim:
 * `{{ expr }}`, `{% for x in expr %}…{% endfor %}`, `{% if expr %}…{% else %}…{% endif %}`, whitespace
 * control (`{%-`, `-%}`, `{{-`, `-}}`), `~` and `+`, `and`/`or`/`not`, `.attr`, `[index]`, string and number
 * literals, and the filters `length` and `join(sep, attribute=…)`. Values print like Python's `str()`, and
 * one trailing newline is dropped (Jinja's default `keep_trailing_newline=False`).
 *
 * Test-only: the prompt builders of the conformance suite use it so the reference's templates stay as written.
 */

type Node =
  | { kind: "text"; text: string }
  | { kind: "output"; expr: Expr }
  | { kind: "for"; variable: string; iterable: Expr; body: Node[] }
  | { kind: "if"; condition: Expr; then: Node[]; otherwise: Node[] };

type Expr =
  | { kind: "literal"; value: unknown }
  | { kind: "name"; name: string }
  | { kind: "attr"; target: Expr; name: string }
  | { kind: "index"; target: Expr; index: Expr }
  | { kind: "filter"; target: Expr; name: string; args: Expr[]; kwargs: Record<string, Expr> }
  | { kind: "binary"; op: string; left: Expr; right: Expr }
  | { kind: "not"; operand: Expr };

interface Tag {
  type: "text" | "output" | "statement";
  body: string;
}

function tokenize(template: string): Tag[] {
  const tags: Tag[] = [];
  const pattern = /\{\{(-?)([\s\S]*?)(-?)\}\}|\{%(-?)([\s\S]*?)(-?)%\}|\{#[\s\S]*?#\}/g;
  let last = 0;
  let trimNext = false;
  for (const match of template.matchAll(pattern)) {
    let text = template.slice(last, match.index);
    if (trimNext) text = text.replace(/^\s+/, "");
    const trimBefore = match[1] === "-" || match[4] === "-";
    if (trimBefore) text = text.replace(/\s+$/, "");
    if (text !== "") tags.push({ type: "text", body: text });
    if (match[2] !== undefined) tags.push({ type: "output", body: match[2].trim() });
    else if (match[5] !== undefined) tags.push({ type: "statement", body: match[5].trim() });
    trimNext = match[3] === "-" || match[6] === "-";
    last = match.index + match[0].length;
  }
  let rest = template.slice(last);
  if (trimNext) rest = rest.replace(/^\s+/, "");
  if (rest !== "") tags.push({ type: "text", body: rest });
  return tags;
}

const tokenPattern =
  /\s*(?:(\d+(?:\.\d+)?)|('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")|([A-Za-z_]\w*)|(==|!=|<=|>=|[~+|.,()[\]=<>]))/y;

function lex(source: string): string[] {
  const tokens: string[] = [];
  tokenPattern.lastIndex = 0;
  while (tokenPattern.lastIndex < source.trimEnd().length) {
    const match = tokenPattern.exec(source);
    if (match === null) throw new Error(`mini-jinja: cannot read expression "${source}"`);
    tokens.push(match[0].trim());
  }
  return tokens;
}

class ExprParser {
  private position = 0;
  constructor(private readonly tokens: string[]) {}

  parse(): Expr {
    const expr = this.or();
    if (this.position < this.tokens.length) throw new Error(`mini-jinja: unexpected "${this.peek()}"`);
    return expr;
  }

  private peek(): string | undefined {
    return this.tokens[this.position];
  }

  private take(expected?: string): string {
    const token = this.tokens[this.position++];
    if (token === undefined || (expected !== undefined && token !== expected)) {
      throw new Error(`mini-jinja: expected "${expected ?? "a token"}", got "${token}"`);
    }
    return token;
  }

  private or(): Expr {
    let left = this.and();
    while (this.peek() === "or") {
      this.take();
      left = { kind: "binary", op: "or", left, right: this.and() };
    }
    return left;
  }

  private and(): Expr {
    let left = this.not();
    while (this.peek() === "and") {
      this.take();
      left = { kind: "binary", op: "and", left, right: this.not() };
    }
    return left;
  }

  private not(): Expr {
    if (this.peek() === "not") {
      this.take();
      return { kind: "not", operand: this.not() };
    }
    return this.concat();
  }

  private concat(): Expr {
    let left = this.postfix();
    while (this.peek() === "~" || this.peek() === "+") {
      const op = this.take();
      left = { kind: "binary", op, left, right: this.postfix() };
    }
    return left;
  }

  private postfix(): Expr {
    let expr = this.primary();
    for (;;) {
      const token = this.peek();
      if (token === ".") {
        this.take();
        expr = { kind: "attr", target: expr, name: this.take() };
      } else if (token === "[") {
        this.take();
        const index = this.or();
        this.take("]");
        expr = { kind: "index", target: expr, index };
      } else if (token === "|") {
        this.take();
        const name = this.take();
        const args: Expr[] = [];
        const kwargs: Record<string, Expr> = {};
        if (this.peek() === "(") {
          this.take();
          while (this.peek() !== ")") {
            if (this.tokens[this.position + 1] === "=") {
              const key = this.take();
              this.take("=");
              kwargs[key] = this.or();
            } else args.push(this.or());
            if (this.peek() === ",") this.take();
          }
          this.take(")");
        }
        expr = { kind: "filter", target: expr, name, args, kwargs };
      } else return expr;
    }
  }

  private primary(): Expr {
    const token = this.take();
    if (token === "(") {
      const inner = this.or();
      this.take(")");
      return inner;
    }
    if (/^\d/.test(token)) return { kind: "literal", value: Number(token) };
    if (token.startsWith("'") || token.startsWith('"')) {
      const body = token.slice(1, -1).replace(/\\n/g, "\n").replace(/\\(.)/g, "$1");
      return { kind: "literal", value: body };
    }
    if (token === "None") return { kind: "literal", value: null };
    if (token === "True" || token === "true") return { kind: "literal", value: true };
    if (token === "False" || token === "false") return { kind: "literal", value: false };
    return { kind: "name", name: token };
  }
}

function parseExpr(source: string): Expr {
  return new ExprParser(lex(source)).parse();
}

function parseNodes(tags: Tag[], position: { index: number }, until: string[]): [Node[], string | undefined] {
  const nodes: Node[] = [];
  while (position.index < tags.length) {
    const tag = tags[position.index++]!;
    if (tag.type === "text") nodes.push({ kind: "text", text: tag.body });
    else if (tag.type === "output") nodes.push({ kind: "output", expr: parseExpr(tag.body) });
    else {
      const keyword = tag.body.split(/\s+/, 1)[0]!;
      if (until.includes(keyword)) return [nodes, keyword];
      if (keyword === "for") {
        const match = /^for\s+(\w+)\s+in\s+([\s\S]+)$/.exec(tag.body);
        if (match === null) throw new Error(`mini-jinja: bad for tag "${tag.body}"`);
        const [body] = parseNodes(tags, position, ["endfor"]);
        nodes.push({ kind: "for", variable: match[1]!, iterable: parseExpr(match[2]!), body });
      } else if (keyword === "if") {
        const condition = parseExpr(tag.body.slice(2));
        const [then, end] = parseNodes(tags, position, ["else", "endif"]);
        const otherwise = end === "else" ? parseNodes(tags, position, ["endif"])[0] : [];
        nodes.push({ kind: "if", condition, then, otherwise });
      } else throw new Error(`mini-jinja: unsupported tag "${tag.body}"`);
    }
  }
  if (until.length > 0) throw new Error(`mini-jinja: missing {% ${until.join(" / ")} %}`);
  return [nodes, undefined];
}

/** Python's `repr` of a value, for lists printed by `str()`. */
function pythonRepr(value: unknown): string {
  if (typeof value === "string") {
    return value.includes("'") && !value.includes('"') ? `"${value}"` : `'${value.replace(/'/g, "\\'")}'`;
  }
  return pythonStr(value);
}

/** Python's `str` of a value, as Jinja prints it. */
export function pythonStr(value: unknown): string {
  if (value === undefined) return "";
  if (value === null) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(", ")}]`;
  if (typeof value === "object") {
    const entries = Object.entries(value).map(([key, item]) => `${pythonRepr(key)}: ${pythonRepr(item)}`);
    return `{${entries.join(", ")}}`;
  }
  return String(value);
}

function truthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (value !== null && typeof value === "object") return Object.keys(value).length > 0;
  return Boolean(value);
}

function evaluate(expr: Expr, scope: Record<string, unknown>): unknown {
  switch (expr.kind) {
    case "literal":
      return expr.value;
    case "name":
      return Object.hasOwn(scope, expr.name) ? scope[expr.name] : undefined;
    case "attr":
    case "index": {
      const target = evaluate(expr.target, scope);
      const key = expr.kind === "attr" ? expr.name : evaluate(expr.index, scope);
      if (target === null || target === undefined) return undefined;
      return (target as Record<string, unknown>)[key as string];
    }
    case "filter": {
      const target = evaluate(expr.target, scope);
      if (expr.name === "length") return (target as { length: number }).length;
      if (expr.name === "join") {
        const separator = expr.args[0] === undefined ? "" : String(evaluate(expr.args[0], scope));
        const attribute =
          expr.kwargs.attribute === undefined ? undefined : evaluate(expr.kwargs.attribute, scope);
        const items = (target as unknown[]).map((item) =>
          attribute === undefined ? item : (item as Record<string, unknown>)[attribute as string],
        );
        return items.map(pythonStr).join(separator);
      }
      throw new Error(`mini-jinja: unsupported filter "${expr.name}"`);
    }
    case "not":
      return !truthy(evaluate(expr.operand, scope));
    case "binary": {
      const left = evaluate(expr.left, scope);
      if (expr.op === "and") return truthy(left) ? evaluate(expr.right, scope) : left;
      if (expr.op === "or") return truthy(left) ? left : evaluate(expr.right, scope);
      const right = evaluate(expr.right, scope);
      if (expr.op === "~") return pythonStr(left) + pythonStr(right);
      return (left as string) + (right as string);
    }
  }
}

function renderNodes(nodes: Node[], scope: Record<string, unknown>): string {
  let out = "";
  for (const node of nodes) {
    if (node.kind === "text") out += node.text;
    else if (node.kind === "output") out += pythonStr(evaluate(node.expr, scope));
    else if (node.kind === "if") {
      out += renderNodes(truthy(evaluate(node.condition, scope)) ? node.then : node.otherwise, scope);
    } else {
      const items = evaluate(node.iterable, scope);
      for (const item of (items as unknown[] | undefined) ?? []) {
        out += renderNodes(node.body, { ...scope, [node.variable]: item });
      }
    }
  }
  return out;
}

function collectNames(expr: Expr, bound: Set<string>, names: Set<string>): void {
  switch (expr.kind) {
    case "name":
      if (!bound.has(expr.name)) names.add(expr.name);
      return;
    case "attr":
      collectNames(expr.target, bound, names);
      return;
    case "index":
      collectNames(expr.target, bound, names);
      collectNames(expr.index, bound, names);
      return;
    case "filter":
      collectNames(expr.target, bound, names);
      for (const arg of [...expr.args, ...Object.values(expr.kwargs)]) collectNames(arg, bound, names);
      return;
    case "not":
      collectNames(expr.operand, bound, names);
      return;
    case "binary":
      collectNames(expr.left, bound, names);
      collectNames(expr.right, bound, names);
      return;
    case "literal":
      return;
  }
}

function collectNodeNames(nodes: Node[], bound: Set<string>, names: Set<string>): void {
  for (const node of nodes) {
    if (node.kind === "output") collectNames(node.expr, bound, names);
    else if (node.kind === "if") {
      collectNames(node.condition, bound, names);
      collectNodeNames(node.then, bound, names);
      collectNodeNames(node.otherwise, bound, names);
    } else if (node.kind === "for") {
      collectNames(node.iterable, bound, names);
      collectNodeNames(node.body, new Set([...bound, node.variable]), names);
    }
  }
}

/** A parsed template. */
export interface MiniTemplate {
  /** The variables the template reads (Jinja's undeclared variables), sorted. */
  readonly variables: readonly string[];
  /** Renders with the given variables. */
  render(variables: Record<string, unknown>): string;
}

/** Parses a template of the supported Jinja subset. */
export function compileTemplate(source: string): MiniTemplate {
  const [nodes] = parseNodes(tokenize(source), { index: 0 }, []);
  const names = new Set<string>();
  collectNodeNames(nodes, new Set(), names);
  return {
    variables: [...names].sort(),
    render: (variables) => {
      const out = renderNodes(nodes, variables);
      return out.endsWith("\n") ? out.slice(0, -1) : out;
    },
  };
}
