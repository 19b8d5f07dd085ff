/**
 * The Agent's prompt templates: plain text with `{{ variable }}` placeholders (dotted paths allowed,
 * `{{ user.name }}`). Deliberately tiny and safe: no expressions, no code, no filters. Strings are
 * inserted as-is; other values as JSON; a missing value renders as the empty string.
 */

const placeholder = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)((?:\.[A-Za-z_][A-Za-z0-9_]*)*)\s*\}\}/g;

/** The variable names a template uses, in order of first use. */
export function templateVariables(template: string): string[] {
  const names = new Set<string>();
  for (const match of template.matchAll(placeholder)) names.add(match[1]!);
  return [...names];
}

/** Renders a template with the given variables. */
export function renderTemplate(template: string, variables: Readonly<Record<string, unknown>>): string {
  return template.replace(placeholder, (_match, name: string, path: string) => {
    let value: unknown = Object.hasOwn(variables, name) ? variables[name] : undefined;
    for (const key of path.split(".").slice(1)) {
      value =
        typeof value === "object" && value !== null && Object.hasOwn(value, key)
          ? (value as Record<string, unknown>)[key]
          : undefined;
    }
    if (value === undefined || value === null) return "";
    return typeof value === "string" ? value : JSON.stringify(value);
  });
}
