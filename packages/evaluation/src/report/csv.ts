/** Writes one CSV field: quoted when it holds a comma, quote or line break (RFC 4180). */
function field(value: unknown): string {
  let text: string;
  if (value === undefined || value === null) text = "";
  else if (typeof value === "number") text = Number.isNaN(value) ? "NaN" : String(value);
  else if (typeof value === "string") text = value;
  else text = JSON.stringify(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * Column lists → CSV text: a header row with the column names, then one line per row.
 *
 * @param columns - column name → values (all of one length)
 */
export function toCSV(columns: Readonly<Record<string, readonly unknown[]>>): string {
  const names = Object.keys(columns);
  const rows = names.length === 0 ? 0 : (columns[names[0] as string]?.length ?? 0);
  const lines = [names.map(field).join(",")];
  for (let row = 0; row < rows; row += 1)
    lines.push(names.map((name) => field(columns[name]?.[row])).join(","));
  return `${lines.join("\r\n")}\r\n`;
}
