/**
 * The text transformations of `DocumentCleaner`, each page-aware where Haystack's is: the text is cut
 * at form feeds (`"\f"`), each page is cleaned, and the pages are joined again, so page breaks (and
 * with them `page_number` in later splitting) survive cleaning.
 */

import { pythonStrip, pythonWhitespaceClass } from "../document/python-whitespace.js";

const spaceRuns = new RegExp(`[${pythonWhitespaceClass}][${pythonWhitespaceClass}]+`, "g");
const strip = pythonStrip;

const onPages = (text: string, clean: (page: string) => string): string =>
  text.split("\f").map(clean).join("\f");

/** NFKD, then drops every non-ASCII code point (accents go, the base letters stay). */
export function asciiOnly(text: string): string {
  return text.normalize("NFKD").replace(/[\u0080-\u{10FFFF}]/gu, "");
}

/**
 * Collapses every run of two or more whitespace characters to one space and strips each page
 * (Python's `re.sub(r"\s\s+", " ", page).strip()`, with Python's whitespace).
 */
export function removeExtraWhitespaces(text: string): string {
  return onPages(text, (page) => strip(page.replace(spaceRuns, " ")));
}

/** Drops lines that are empty or whitespace only, page by page. */
export function removeEmptyLines(text: string): string {
  return onPages(text, (page) =>
    page
      .split("\n")
      .filter((line) => strip(line) !== "")
      .join("\n"),
  );
}

/** Removes every occurrence of each substring, in order. */
export function removeSubstrings(text: string, substrings: readonly string[]): string {
  let result = text;
  for (const substring of substrings) {
    if (substring !== "") result = result.split(substring).join("");
  }
  return result;
}

/** Removes every match of `pattern` on each page, then strips the page. */
export function removeRegex(text: string, pattern: RegExp): string {
  return onPages(text, (page) => strip(page.replace(pattern, "")));
}

/** Replaces every match of each pattern with its replacement (`$1` style), page by page, in order. */
export function replaceRegexes(text: string, replacements: readonly (readonly [RegExp, string])[]): string {
  return onPages(text, (page) => {
    let result = page;
    for (const [pattern, replacement] of replacements) result = result.replace(pattern, replacement);
    return result;
  });
}
