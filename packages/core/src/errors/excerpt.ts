/**
 * Bounded quotes of user data in messages. Error and log messages quote what the user gave (document
 * values, socket strings, type names, expressions, inputs); a 50 MB sender string must not become a
 * 50 MB error message. Every message that quotes user data goes through {@link excerpt}.
 */

/** How many characters of a value a message quotes by default. */
export const excerptLength = 200;

/**
 * The first `max` characters of `text`, followed by `… (N characters)` when it is longer; the text itself
 * when it fits. Never splits a surrogate pair.
 *
 * @param text - the user's value (non-strings are converted with `String`)
 * @param max - how many characters to keep (default 200)
 * @example
 * ```ts
 * excerpt("x".repeat(1000)); // "xxx…x… (1000 characters)" with 200 "x"
 * `Pipeline.connect: no component "${excerpt(name)}".`;
 * ```
 */
export function excerpt(text: unknown, max: number = excerptLength): string {
  const value = typeof text === "string" ? text : String(text);
  if (value.length <= max) return value;
  let end = Math.max(0, max);
  const last = value.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1; // keep a surrogate pair whole
  return `${value.slice(0, end)}… (${value.length} characters)`;
}

/**
 * `excerpt(text)` as a JSON string literal (quoted and escaped), for messages that show a value
 * verbatim: `the expression "a.b == 1" failed`.
 *
 * @param text - the user's value
 * @param max - how many characters to keep (default 200)
 */
export function quoteExcerpt(text: unknown, max: number = excerptLength): string {
  return JSON.stringify(excerpt(text, max));
}
