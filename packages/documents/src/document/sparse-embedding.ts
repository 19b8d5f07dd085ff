import { DeserializationError } from "@junction/core";
/** The JSON form of a {@link SparseEmbedding} (Haystack's `SparseEmbedding.to_dict`). */
export interface SparseEmbeddingJSON {
  readonly indices: readonly number[];
  readonly values: readonly number[];
}

/** A sparse vector: parallel lists of indices and values (Haystack's `SparseEmbedding`). */
export class SparseEmbedding {
  readonly indices: readonly number[];
  readonly values: readonly number[];

  constructor(indices: readonly number[], values: readonly number[]) {
    if (indices.length !== values.length) {
      throw new TypeError(
        `SparseEmbedding: indices (${indices.length}) and values (${values.length}) must have the same length.`,
      );
    }
    this.indices = indices;
    this.values = values;
  }

  /** `{ indices, values }`. */
  toJSON(): SparseEmbeddingJSON {
    return { indices: [...this.indices], values: [...this.values] };
  }

  /** Reads the shape {@link SparseEmbedding.toJSON} writes. */
  static fromJSON(json: unknown): SparseEmbedding {
    if (typeof json !== "object" || json === null) {
      throw new DeserializationError("SparseEmbedding.fromJSON: expected an object { indices, values }.");
    }
    const { indices, values } = json as Record<string, unknown>;
    if (!Array.isArray(indices) || !Array.isArray(values)) {
      throw new DeserializationError(
        "SparseEmbedding.fromJSON: indices and values must be lists of numbers.",
      );
    }
    if (indices.length !== values.length || !indices.every(Number.isInteger) || !values.every(isNumber)) {
      throw new DeserializationError(
        `SparseEmbedding.fromJSON: indices must be integers and values numbers, one value per index (got ${indices.length} indices and ${values.length} values).`,
      );
    }
    return new SparseEmbedding(indices as number[], values as number[]);
  }
}

function isNumber(value: unknown): value is number {
  return typeof value === "number";
}
