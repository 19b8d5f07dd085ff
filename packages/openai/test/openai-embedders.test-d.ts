import type { Document, DocumentEmbedderMeta, TextEmbedderMeta } from "@junction/documents";
import {
  OpenAIDocumentEmbedder,
  type OpenAIDocumentEmbedderOptions,
  OpenAITextEmbedder,
} from "@junction/openai";
import { expectTypeOf, test } from "vitest";

test("the text embedder takes a string and resolves to a number[] embedding and typed meta", () => {
  const embedder = new OpenAITextEmbedder();
  expectTypeOf(embedder.run).parameter(0).toEqualTypeOf<{ text: string }>();
  type Result = Awaited<ReturnType<typeof embedder.run>>;
  expectTypeOf<Result["embedding"]>().toEqualTypeOf<number[] | undefined>();
  expectTypeOf<Result["meta"]>().toEqualTypeOf<TextEmbedderMeta | undefined>();
});

test("the document embedder resolves to documents and meta with failed_documents", () => {
  const embedder = new OpenAIDocumentEmbedder();
  type Result = Awaited<ReturnType<typeof embedder.run>>;
  expectTypeOf<Result["documents"]>().toEqualTypeOf<Document[] | undefined>();
  expectTypeOf<Result["meta"]>().toEqualTypeOf<DocumentEmbedderMeta | undefined>();
  expectTypeOf<DocumentEmbedderMeta["failed_documents"]>().toEqualTypeOf<string[]>();
});

test("options are optional and camelCase", () => {
  expectTypeOf<{}>().toExtend<OpenAIDocumentEmbedderOptions>();
  expectTypeOf<OpenAIDocumentEmbedderOptions["batchSize"]>().toEqualTypeOf<number | undefined>();
  expectTypeOf<OpenAIDocumentEmbedderOptions["metaFieldsToEmbed"]>().toEqualTypeOf<string[] | undefined>();
  expectTypeOf<OpenAIDocumentEmbedderOptions["dimensions"]>().toEqualTypeOf<number | undefined>();
});
