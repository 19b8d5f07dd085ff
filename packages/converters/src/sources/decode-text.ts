import { TextDecoder } from "node:util";
import type { ByteStream } from "@junction/documents";
import { ConversionError } from "../errors.js";
import { decoderLabel } from "./source-params.js";

/**
 * Decodes a stream's bytes strictly (a byte sequence invalid in the encoding is an error, as Python's
 * `bytes.decode`). The stream's `meta.encoding` overrides `encoding`, as in Haystack.
 *
 * @throws ConversionError (`decode`) naming the source and the encoding
 */
export function decodeText(stream: ByteStream, encoding: string, label: string, described: string): string {
  const chosen = typeof stream.meta.encoding === "string" ? stream.meta.encoding : encoding;
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(decoderLabel(chosen) ?? chosen, { fatal: true });
  } catch (error) {
    throw new ConversionError(
      `${label}: ${described} names the unknown encoding "${chosen}" in meta.encoding; use a WHATWG label such as "utf-8" or "latin1".`,
      { reason: "decode", source: described, cause: error },
    );
  }
  try {
    return decoder.decode(stream.data);
  } catch (error) {
    throw new ConversionError(
      `${label}: ${described} is not valid ${chosen} text. Set the converter's encoding option (e.g. "latin1") or the ByteStream's meta.encoding to the file's encoding.`,
      { reason: "decode", source: described, cause: error },
    );
  }
}
