import { z } from "zod";
import { documentSchema } from "../document/document-types.js";

/**
 * The socket type of a list of documents used by the preprocessing components: a list of the named
 * `Document` type, so their sockets connect to retrievers', converters' and stores' sockets.
 */
export const documentListSchema = z.array(documentSchema);
