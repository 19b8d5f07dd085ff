import { z } from "zod";
import { Document } from "../document/document.js";

/**
 * The socket type of a list of documents used by the preprocessing components.
 *
 * @internal Replaced by the package's named `documentSchema` once it exists, so sockets compare by
 * identity with retrievers' and stores' sockets.
 */
export const documentListSchema = z.array(z.instanceof(Document));
