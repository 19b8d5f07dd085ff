import {
  isAlias,
  isCollection,
  isNode,
  isPair,
  isScalar,
  isSeq,
  LineCounter,
  type Node,
  parseDocument,
  stringify,
  visit,
} from "yaml";
import { DeserializationError, formatIssues, type Issue } from "../errors/errors.js";
import { excerpt } from "../errors/excerpt.js";

/**
 * YAML in and out, restricted to plain data.
 *
 * Reading uses the YAML 1.2 core schema with no custom tags, refuses **every** explicit tag (`!!js/function`,
 * `!!python/object`, even `!!str`), caps alias expansion (billion-laughs documents), refuses duplicate keys
 * and multiple documents, and never quotes the source in error messages (it may hold a credential).
 */

/** The most alias expansions one document may need. */
export const maxYAMLAliasCount = 100;

/** The longest YAML text read (4 Mi characters): parsing time grows with the size, so it is bounded. */
export const maxYAMLLength = 4 * 1024 * 1024;

/** Writes plain data as YAML (block style, no anchors, keys in insertion order). */
export function dataToYAML(data: unknown): string {
  return stringify(data, { schema: "core", aliasDuplicateObjects: false, lineWidth: 0 });
}

function at(lineCounter: LineCounter, offset: number | undefined): string {
  if (offset === undefined) return "";
  const { line, col } = lineCounter.linePos(offset);
  return `line ${line}, column ${col}: `;
}

/**
 * Parses YAML text into plain data.
 *
 * @param text - the YAML source
 * @param where - the caller, for the error message (e.g. `"Pipeline.fromYAML"`)
 * @throws DeserializationError listing every problem with its line and column
 */
export function parseYAMLData(text: string, where: string): unknown {
  const issues: Issue[] = [];
  if (typeof text !== "string") {
    issues.push({ path: [], message: "expected YAML text (a string)." });
  } else if (text.length > maxYAMLLength) {
    issues.push({
      path: [],
      message: `the YAML text is ${text.length} characters long; at most ${maxYAMLLength} are read. Keep large data out of pipeline documents.`,
    });
  } else {
    const lineCounter = new LineCounter();
    const doc = parseDocument(text, {
      schema: "core",
      customTags: [],
      version: "1.2",
      merge: false,
      uniqueKeys: true,
      prettyErrors: false,
      lineCounter,
    });
    for (const error of [...doc.errors, ...doc.warnings]) {
      const message = /call stack/i.test(error.message)
        ? "the YAML is nested too deeply to read."
        : error.message;
      issues.push({ path: [], message: `${at(lineCounter, error.pos[0])}${message}` });
    }
    visit(doc, (_key, node, ancestors) => {
      if (isPair(node)) {
        const key = node.key;
        const target = isAlias(key) ? key.resolve(doc) : key;
        if (isCollection(target)) {
          const path = yamlPath([...ancestors, node]);
          issues.push({
            path,
            message: `${at(lineCounter, (key as Node).range?.[0])}a mapping key is a ${isSeq(target) ? "sequence" : "mapping"} (a "? [a, b]" or "? {a: 1}" key); keys must be plain scalars such as strings. Write the key as a string.`,
          });
        }
      }
      if (isNode(node) && node.tag !== undefined) {
        issues.push({
          path: [],
          message: `${at(lineCounter, node.range?.[0])}the YAML tag "${excerpt(node.tag)}" is not allowed. Documents hold plain data only (strings, numbers, booleans, null, lists, maps); remove the tag.`,
        });
      }
    });
    if (issues.length === 0) {
      try {
        return doc.toJS({ maxAliasCount: maxYAMLAliasCount });
      } catch (error) {
        issues.push({
          path: [],
          message: `${error instanceof Error ? error.message : String(error)} (aliases may expand at most ${maxYAMLAliasCount} times).`,
        });
      }
    }
  }
  throw new DeserializationError(
    `${where}: cannot read the YAML (${issues.length} problem${issues.length === 1 ? "" : "s"}):\n${formatIssues(issues)}`,
    { issues },
  );
}

/** The document path of a node from its ancestors (map keys as strings, sequence positions as numbers). */
function yamlPath(ancestors: readonly unknown[]): (string | number)[] {
  const path: (string | number)[] = [];
  ancestors.forEach((ancestor, index) => {
    const child = ancestors[index + 1];
    if (child === undefined) return;
    if (isSeq(ancestor)) path.push(ancestor.items.indexOf(child as never));
    else if (isPair(ancestor) && child === ancestor.value && isScalar(ancestor.key)) {
      path.push(String(ancestor.key.value));
    }
  });
  return path;
}
