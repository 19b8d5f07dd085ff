import { DocumentStoreConfigError } from "./in-memory-errors.js";

/** The BM25 variants of Haystack's in-memory store (after rank_bm25). */
export type Bm25Algorithm = "BM25L" | "BM25Okapi" | "BM25Plus";

/** Every {@link Bm25Algorithm}. */
export const bm25Algorithms = ["BM25L", "BM25Okapi", "BM25Plus"] as const;

/** How embeddings are compared. */
export type EmbeddingSimilarityFunction = "dot_product" | "cosine";

/**
 * BM25 parameters (Haystack's `bm25_parameters`). Left-out values take Haystack's defaults: `k1` 1.5,
 * `b` 0.75, `delta` 0.5 for BM25L and 1.0 for BM25Plus, `epsilon` 0.25 (BM25Okapi's floor for negative idf,
 * as a fraction of the mean idf of the vocabulary).
 */
export interface Bm25Parameters {
  readonly k1?: number | undefined;
  readonly b?: number | undefined;
  readonly delta?: number | undefined;
  readonly epsilon?: number | undefined;
}

/** Options of `InMemoryDocumentStore`. */
export interface InMemoryDocumentStoreOptions {
  /** The BM25 variant (default `"BM25L"`, as Haystack). */
  readonly bm25Algorithm?: Bm25Algorithm | undefined;
  /** BM25 parameters; see {@link Bm25Parameters} for the defaults. */
  readonly bm25Parameters?: Bm25Parameters | undefined;
  /**
   * The token pattern, as JavaScript regular-expression source (matched with the `g` and `u` flags after
   * lowercasing). The default `[\p{L}\p{N}_]+` tokenizes as Haystack's Python `(?u)\b\w+\b`; that
   * Python string itself is accepted and means the default.
   */
  readonly bm25TokenizationRegex?: string | undefined;
  /** How embeddings are compared (default `"dot_product"`, as Haystack). */
  readonly embeddingSimilarityFunction?: EmbeddingSimilarityFunction | undefined;
  /** Whether `filterDocuments` and `bm25Retrieval` return embeddings (default `true`, as Haystack). */
  readonly returnEmbedding?: boolean | undefined;
  /**
   * A JSON file that holds the documents. When it exists, the store loads it on construction; every
   * write and delete saves it (atomically) before resolving, unless `autoSave` is `false`. A pipeline
   * saved with this store records the path, so loading the pipeline brings the documents back.
   */
  readonly path?: string | undefined;
  /** With `path`: save after every write and delete (default `true`). Otherwise call `save()`. */
  readonly autoSave?: boolean | undefined;
}

/** The options with every default filled in. */
export interface ResolvedStoreOptions {
  readonly bm25Algorithm: Bm25Algorithm;
  readonly bm25Parameters: Bm25Parameters;
  readonly bm25TokenizationRegex: string;
  readonly embeddingSimilarityFunction: EmbeddingSimilarityFunction;
  readonly returnEmbedding: boolean;
  readonly path: string | undefined;
  readonly autoSave: boolean;
}

/** The default token pattern: Python's Unicode `\w+` (letters, digits, underscore; not combining marks). */
export const defaultTokenizationRegex = "[\\p{L}\\p{N}_]+";

/** Haystack's default pattern, accepted as a synonym of {@link defaultTokenizationRegex}. */
const haystackDefaultRegex = "(?u)\\b\\w+\\b";

/** Every option of the store (anything else is refused, so a misspelt or snake_case option is not ignored). */
const optionKeys: readonly string[] = [
  "bm25Algorithm",
  "bm25Parameters",
  "bm25TokenizationRegex",
  "embeddingSimilarityFunction",
  "returnEmbedding",
  "path",
  "autoSave",
];

function fail(message: string): never {
  throw new DocumentStoreConfigError(`InMemoryDocumentStore: ${message}`);
}

function checkParameters(parameters: unknown): Bm25Parameters {
  if (parameters === undefined || parameters === null) return {};
  if (typeof parameters !== "object" || Array.isArray(parameters)) {
    fail("bm25Parameters must be an object { k1, b, delta, epsilon }.");
  }
  const out: Record<string, number> = {};
  for (const [key, value] of Object.entries(parameters)) {
    if (!["k1", "b", "delta", "epsilon"].includes(key)) {
      fail(`bm25Parameters has an unknown key "${key}"; the keys are k1, b, delta and epsilon.`);
    }
    if (value === undefined) continue;
    if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
      fail(`bm25Parameters.${key} must be a finite number ≥ 0 (got ${JSON.stringify(value)}).`);
    }
    if (key === "b" && value > 1) fail(`bm25Parameters.b must be between 0 and 1 (got ${value}).`);
    out[key] = value;
  }
  return out;
}

/**
 * Validates the options and fills in the defaults.
 *
 * @throws DocumentStoreConfigError naming the option and the accepted values
 */
export function resolveStoreOptions(options: InMemoryDocumentStoreOptions): ResolvedStoreOptions {
  if (typeof options !== "object" || options === null) fail("the options must be an object.");
  for (const key of Object.keys(options)) {
    if (optionKeys.includes(key)) continue;
    const camel = key.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
    const hint = optionKeys.includes(camel) ? ` Options are camelCase: write ${camel}.` : "";
    fail(`unknown option "${key}"; the options are ${optionKeys.join(", ")}.${hint}`);
  }
  const algorithm = options.bm25Algorithm ?? "BM25L";
  if (!bm25Algorithms.includes(algorithm)) {
    fail(`bm25Algorithm "${String(algorithm)}" is not supported; use "BM25L", "BM25Okapi" or "BM25Plus".`);
  }
  const similarity = options.embeddingSimilarityFunction ?? "dot_product";
  if (similarity !== "dot_product" && similarity !== "cosine") {
    fail(
      `embeddingSimilarityFunction "${String(similarity)}" is not supported; use "dot_product" or "cosine".`,
    );
  }
  let regex = options.bm25TokenizationRegex ?? defaultTokenizationRegex;
  if (regex === haystackDefaultRegex) regex = defaultTokenizationRegex;
  if (typeof regex !== "string" || regex === "") fail("bm25TokenizationRegex must be a non-empty string.");
  try {
    new RegExp(regex, "gu");
  } catch (error) {
    fail(
      `bm25TokenizationRegex "${regex}" is not a valid JavaScript regular expression (${(error as Error).message}).`,
    );
  }
  if (options.path !== undefined && (typeof options.path !== "string" || options.path === "")) {
    fail("path must be a non-empty string.");
  }
  for (const key of ["returnEmbedding", "autoSave"] as const) {
    if (options[key] !== undefined && typeof options[key] !== "boolean") fail(`${key} must be a boolean.`);
  }
  return {
    bm25Algorithm: algorithm,
    bm25Parameters: checkParameters(options.bm25Parameters),
    bm25TokenizationRegex: regex,
    embeddingSimilarityFunction: similarity,
    returnEmbedding: options.returnEmbedding ?? true,
    path: options.path,
    autoSave: options.autoSave ?? true,
  };
}

/** A tokenizer: lowercases (as Python's `str.lower`) and returns every match of the pattern. */
export function makeTokenizer(regexSource: string): (text: string) => string[] {
  const pattern = new RegExp(regexSource, "gu");
  return (text) => text.toLowerCase().match(pattern) ?? [];
}
