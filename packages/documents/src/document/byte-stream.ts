import { DeserializationError, expressionView } from "@junction/core";
/** The JSON form of a {@link ByteStream} (Haystack's `ByteStream.to_dict`: the bytes as a list of integers). */
export interface ByteStreamJSON {
  readonly data: readonly number[];
  readonly meta: Readonly<Record<string, unknown>>;
  readonly mime_type: string | null;
}

/** Options of {@link ByteStream}. */
export interface ByteStreamOptions {
  /** The MIME type of the bytes (`"application/pdf"`), when known. */
  readonly mimeType?: string | undefined;
  /** Metadata about the bytes (for example the file path or URL they came from). */
  readonly meta?: Record<string, unknown> | undefined;
}

/**
 * Binary data with an optional MIME type and metadata: a file read from disk, a response body, a
 * document's `blob`. Mirrors Haystack's `ByteStream`.
 */
export class ByteStream {
  /** The bytes. */
  readonly data: Uint8Array;
  /** The MIME type, when known. */
  readonly mimeType: string | undefined;
  /** Metadata about the bytes. */
  readonly meta: Record<string, unknown>;

  constructor(data: Uint8Array, options: ByteStreamOptions = {}) {
    this.data = data;
    this.mimeType = options.mimeType;
    this.meta = options.meta ?? {};
  }

  /** A byte stream holding `text` encoded as UTF-8. */
  static fromString(text: string, options: ByteStreamOptions = {}): ByteStream {
    return new ByteStream(new TextEncoder().encode(text), options);
  }

  /** The bytes decoded as UTF-8 text. */
  toText(): string {
    return new TextDecoder().decode(this.data);
  }

  /** How expressions and templates see a byte stream: `{ data (bytes), meta, mime_type }`. */
  [expressionView](): Record<string, unknown> {
    return { data: this.data, meta: this.meta, mime_type: this.mimeType ?? null };
  }

  /** Haystack's `to_dict` shape: `{ data: number[], meta, mime_type }`. */
  toJSON(): ByteStreamJSON {
    return { data: Array.from(this.data), meta: this.meta, mime_type: this.mimeType ?? null };
  }

  /** Reads the shape {@link ByteStream.toJSON} writes. */
  static fromJSON(json: unknown): ByteStream {
    if (typeof json !== "object" || json === null || Array.isArray(json)) {
      throw new DeserializationError("ByteStream.fromJSON: expected an object { data, meta, mime_type }.");
    }
    const record = json as Record<string, unknown>;
    const data = record.data;
    if (!Array.isArray(data) || !data.every((byte) => Number.isInteger(byte) && byte >= 0 && byte <= 255)) {
      throw new DeserializationError("ByteStream.fromJSON: data must be a list of integers from 0 to 255.");
    }
    const mimeType = record.mime_type;
    if (mimeType !== undefined && mimeType !== null && typeof mimeType !== "string") {
      throw new DeserializationError("ByteStream.fromJSON: mime_type must be a string or null.");
    }
    const meta = record.meta;
    if (meta !== undefined && (typeof meta !== "object" || meta === null || Array.isArray(meta))) {
      throw new DeserializationError("ByteStream.fromJSON: meta must be an object.");
    }
    return new ByteStream(Uint8Array.from(data as number[]), {
      mimeType: mimeType ?? undefined,
      meta: (meta as Record<string, unknown> | undefined) ?? {},
    });
  }
}
