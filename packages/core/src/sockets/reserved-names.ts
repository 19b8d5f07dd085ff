import { excerpt } from "../errors/excerpt.js";

/**
 * Names that can never name a socket, a route output, a State key or a component: `__proto__`,
 * `constructor` and `prototype` name object internals in JavaScript. An object keyed by such a name
 * either changes its prototype (`obj["__proto__"] = value`) or shadows what other code expects, so
 * they are refused where names are defined (and where documents are loaded) rather than handled at
 * every object the library builds.
 */
export const reservedNames: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

/**
 * True for `__proto__`, `constructor` and `prototype` (see {@link reservedNames}).
 *
 * @param name - a socket, route output, State key or component name
 */
export function isReservedName(name: string): boolean {
  return reservedNames.has(name);
}

/**
 * The sentence refusing a reserved name: `"constructor" cannot be a socket name: ...`.
 *
 * @param name - the reserved name
 * @param what - what it was meant to name (`"a socket name"`, `"a State key"`)
 */
export function reservedNameMessage(name: string, what: string): string {
  return `"${excerpt(name)}" cannot be ${what}: "__proto__", "constructor" and "prototype" are reserved (they name object internals in JavaScript). Choose another name.`;
}
