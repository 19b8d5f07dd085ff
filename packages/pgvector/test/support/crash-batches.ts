import { crashBatches } from "../../../../test/support/crash-batches.js";

/** The pgvector store's crash-test batches (one transaction each): 100 documents of 2,000 characters, 3-number embeddings. */
export const crashDocuments = crashBatches(100, 2000, 3);
