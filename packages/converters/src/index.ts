export { CSVToDocument } from "./converters/csv-to-document.js";
export { HTMLToDocument } from "./converters/html-to-document.js";
export { JSONConverter } from "./converters/json-converter.js";
export { MarkdownToDocument } from "./converters/markdown-to-document.js";
export { PDFToDocument } from "./converters/pdf-to-document.js";
export { TextFileToDocument } from "./converters/text-file-to-document.js";
export type {
  ConversionErrorFields,
  ConversionFailureReason,
  FetchErrorFields,
  FetchFailureReason,
} from "./errors.js";
export { ConversionError, FetchError } from "./errors.js";
export { defaultUserAgent, LinkContentFetcher } from "./fetcher/link-content-fetcher.js";
export type { ResolvedAddress, ResolveHost } from "./fetcher/resolve-host.js";
export { systemResolveHost } from "./fetcher/resolve-host.js";
export type { Source, SourcesMeta } from "./sources/socket-schemas.js";
