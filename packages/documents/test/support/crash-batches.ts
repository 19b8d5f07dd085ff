import { crashBatches } from "../../../../test/support/crash-batches.js";

/** The in-memory store's crash-test batches: 150 documents of 3,000 characters, 8-number embeddings. */
export const crashDocuments = crashBatches(150, 3000, 8);
