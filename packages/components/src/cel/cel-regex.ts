import { excerpt } from "@junction/core";
import { RE2JS, RE2JSException } from "re2js";

/**
 * Regular expressions of CEL's `matches()`, on a linear-time engine.
 *
 * CEL specifies RE2 syntax and semantics. JavaScript's `RegExp` backtracks: a nested quantifier such as
 * `(a+)+$` on a 30-character input takes seconds to minutes of CPU and blocks the event loop. `re2js`
 * (a pure JavaScript port of RE2) matches in time linear in the input, and refuses what RE2 does not
 * support (backreferences, lookaround) when the pattern is compiled.
 */

const cacheLimit = 500;
const compiled = new Map<string, RE2JS | string>();

/** A pattern `matches()` cannot use: the message names the pattern and what is wrong with it. */
export class CelPatternError extends Error {
  /** @param message - names the pattern and the reason */
  constructor(message: string) {
    super(message);
    this.name = "CelPatternError";
  }
}

/**
 * Why RE2 refuses `pattern` (a sentence naming it), or `undefined` when it compiles.
 *
 * @param pattern - a regular expression in RE2 syntax
 */
export function patternProblem(pattern: string): string | undefined {
  const entry = compile(pattern);
  return typeof entry === "string" ? entry : undefined;
}

/**
 * True when `pattern` matches somewhere in `text` (CEL's `matches()`: unanchored search).
 *
 * @throws {@link CelPatternError} when RE2 does not support the pattern
 */
export function regexMatches(text: string, pattern: string): boolean {
  const entry = compile(pattern);
  if (typeof entry === "string") throw new CelPatternError(entry);
  return entry.test(text);
}

function compile(pattern: string): RE2JS | string {
  let entry = compiled.get(pattern);
  if (entry === undefined) {
    entry = compileUncached(pattern);
    if (compiled.size >= cacheLimit) {
      const oldest = compiled.keys().next().value;
      if (oldest !== undefined) compiled.delete(oldest);
    }
    compiled.set(pattern, entry);
  }
  return entry;
}

function compileUncached(pattern: string): RE2JS | string {
  try {
    return RE2JS.compile(pattern);
  } catch (error) {
    if (!(error instanceof RE2JSException)) throw error;
    return `the regular expression ${JSON.stringify(excerpt(pattern, 200))} ${reason(pattern, error.message)}`;
  }
}

function reason(pattern: string, message: string): string {
  if (/\(\?<?[=!]/.test(pattern)) {
    return "uses lookaround ((?=, (?!, (?<=, (?<!), which CEL's regular expressions (RE2, matched in linear time) do not support; rewrite it without lookaround, for example as two matches() joined with && or !.";
  }
  if (/\\[1-9]|\\k</.test(pattern)) {
    return "uses a backreference (\\1, \\k<name>), which CEL's regular expressions (RE2, matched in linear time) do not support; match the repeated part explicitly or compare captured text outside the pattern.";
  }
  return `is not valid RE2 syntax: ${excerpt(message.replace(/^error parsing regexp: /, ""), 200)}.`;
}
