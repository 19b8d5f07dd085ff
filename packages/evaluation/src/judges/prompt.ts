/**
 * The judge prompt, laid out as Haystack's `LLMEvaluator.prepare_template` lays it out: the
 * instructions, the keys of the JSON answer, the few-shot examples, then the inputs of one question.
 * Keys and examples are written as Python's `json.dumps` writes them (`", "` and `": "` separators,
 * non-ASCII escaped), so the model sees the same text it sees under Haystack.
 */

/** One few-shot example: the inputs of a question and the answer expected for them. */
export interface JudgeExample {
  /** Input name → value for one question (e.g. `{ questions: "…", contexts: ["…"] }`). */
  readonly inputs: Readonly<Record<string, unknown>>;
  /** Output name → value (e.g. `{ score: 1 }`). */
  readonly outputs: Readonly<Record<string, unknown>>;
}

/** A JSON string literal with every character outside printable ASCII escaped (`ensure_ascii`). */
function asciiString(text: string): string {
  return JSON.stringify(text).replace(
    /[^\x20-\x7e]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** Python's `json.dumps(value)` for JSON-like values. */
export function pythonJsonDumps(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "string") return asciiString(value);
  if (typeof value === "number") {
    if (Number.isNaN(value)) return "NaN";
    if (!Number.isFinite(value)) return value > 0 ? "Infinity" : "-Infinity";
    return String(value);
  }
  if (typeof value === "boolean") return value ? "true" : "false";
  if (Array.isArray(value)) return `[${value.map(pythonJsonDumps).join(", ")}]`;
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>);
    return `{${entries.map(([key, item]) => `${asciiString(key)}: ${pythonJsonDumps(item)}`).join(", ")}}`;
  }
  return asciiString(String(value));
}

/**
 * Builds the prompt of one question. The inputs are written as JSON (Haystack's Jinja template writes a
 * text bare and a list as its Python repr); the prompt ends with `Outputs:` as Haystack's rendered one
 * does (Jinja drops the template's last newline).
 */
export function judgePrompt(options: {
  readonly instructions: string;
  readonly outputs: readonly string[];
  readonly examples: readonly JudgeExample[];
  readonly inputs: Readonly<Record<string, unknown>>;
}): string {
  const examples = options.examples
    .map(
      (example) =>
        `Inputs:\n${pythonJsonDumps(example.inputs)}\nOutputs:\n${pythonJsonDumps(example.outputs)}`,
    )
    .join("\n");
  return (
    `Instructions:\n${options.instructions}\n\n` +
    `Generate the response in JSON format with the following keys:\n${pythonJsonDumps(options.outputs)}\n` +
    "Consider the instructions and the examples below to determine those values.\n\n" +
    `Examples:\n${examples}\n\n` +
    `Inputs:\n${pythonJsonDumps(options.inputs)}\n` +
    "Outputs:"
  );
}
