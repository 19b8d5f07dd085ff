import { JunctionError, type JunctionErrorFields } from "@junction/core";

/**
 * A chat message, content part or streaming chunk was built with values that break its rules
 * (an empty user message, a chunk with both text and a tool call, a tool name providers reject).
 *
 * @example
 * ```ts
 * try { ChatMessage.fromUser({ parts: [] }); } catch (error) {
 *   if (error instanceof MessageFormatError) console.log(error.code); // "MESSAGE_FORMAT_ERROR"
 * }
 * ```
 */
export class MessageFormatError extends JunctionError {
  /** @param message - what is wrong and how to fix it @param fields - structured fields */
  constructor(message: string, fields: JunctionErrorFields = {}) {
    super("MESSAGE_FORMAT_ERROR", message, fields);
  }
}

/**
 * A value could not be converted on its way between two sockets at run time: a `ChatMessage` without
 * text into a `string` socket, or a list that does not hold exactly one item into a single-value socket.
 */
export class ConversionError extends JunctionError {
  /** @param message - what could not be converted and how to fix it @param fields - structured fields */
  constructor(message: string, fields: JunctionErrorFields = {}) {
    super("CONVERSION_ERROR", message, fields);
  }
}
