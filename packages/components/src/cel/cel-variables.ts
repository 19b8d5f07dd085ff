import type { ASTNode } from "@marcbachmann/cel-js";
import { isBuiltinName } from "./cel-environment.js";

/** Macros whose first argument(s) name iteration variables scoped to the remaining arguments. */
const comprehensionMacros = new Set(["all", "exists", "exists_one", "map", "filter"]);

/**
 * The free variables of a parsed CEL expression, in order of first use: every identifier that is not
 * bound by a macro (`list.map(x, ...)`, `cel.bind(x, ...)`) and not a built-in name (`cel`, `int`, ...).
 *
 * @param ast - the parsed expression
 */
export function freeVariables(ast: ASTNode): string[] {
  return identifiers(ast).variables;
}

/**
 * The identifiers of a parsed expression: its free variables, and the built-in names used bare
 * (`type`, `list`, `string`, ...), which are CEL's types and never inputs.
 *
 * @param ast - the parsed expression
 */
export function identifiers(ast: ASTNode): { variables: string[]; builtins: string[] } {
  const found = new Set<string>();
  const builtins = new Set<string>();
  collect(ast, new Set(), found, builtins);
  return { variables: [...found], builtins: [...builtins] };
}

function isNode(value: unknown): value is ASTNode {
  return typeof value === "object" && value !== null && "op" in value && "args" in value;
}

function collect(node: ASTNode, bound: ReadonlySet<string>, found: Set<string>, builtins: Set<string>): void {
  switch (node.op) {
    case "value":
      return;
    case "id":
      if (bound.has(node.args)) return;
      if (isBuiltinName(node.args)) builtins.add(node.args);
      else found.add(node.args);
      return;
    case ".":
    case ".?":
      collect(node.args[0], bound, found, builtins);
      return;
    case "rcall": {
      const [name, receiver, args] = node.args;
      const first = args[0];
      if (comprehensionMacros.has(name) && first?.op === "id") {
        collect(receiver, bound, found, builtins);
        const names = [first.args];
        let rest = args.slice(1);
        const second = args[1];
        if (name !== "map" && args.length === 3 && second?.op === "id") {
          names.push(second.args);
          rest = args.slice(2);
        }
        const inner = new Set([...bound, ...names]);
        for (const arg of rest) collect(arg, inner, found, builtins);
        return;
      }
      if (name === "bind" && receiver.op === "id" && receiver.args === "cel" && first?.op === "id") {
        const [, init, body] = args;
        if (init !== undefined) collect(init, bound, found, builtins);
        if (body !== undefined) collect(body, new Set([...bound, first.args]), found, builtins);
        return;
      }
      collect(receiver, bound, found, builtins);
      for (const arg of args) collect(arg, bound, found, builtins);
      return;
    }
    default:
      walk(node.args, bound, found, builtins);
  }
}

function walk(value: unknown, bound: ReadonlySet<string>, found: Set<string>, builtins: Set<string>): void {
  if (isNode(value)) collect(value, bound, found, builtins);
  else if (Array.isArray(value)) for (const item of value) walk(item, bound, found, builtins);
}
