import { getDocumentProxy } from "unpdf";
import { ConversionError } from "../errors.js";

/** What {@link extractPdfPages} needs besides the bytes. */
export interface ExtractPdfOptions {
  /** The most pages accepted; a longer PDF fails. */
  readonly maxPages: number;
  /** The component as messages name it. */
  readonly label: string;
  /** The source as messages name it. */
  readonly described: string;
  /** Aborts between pages. */
  readonly signal: AbortSignal | undefined;
}

interface TextItem {
  readonly str?: string;
  readonly hasEOL?: boolean;
}

/**
 * The text of every page of a PDF (pdf.js through `unpdf`, in-process, no native code): items joined in
 * content order, a line break where pdf.js sees one.
 *
 * @throws ConversionError: `corrupt` (not a PDF), `unreadable` (password-protected), `too_large` (over `maxPages`)
 */
export async function extractPdfPages(data: Uint8Array, options: ExtractPdfOptions): Promise<string[]> {
  const { label, described } = options;
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // A copy: pdf.js may transfer (detach) the buffer it is given, and the ByteStream is the caller's.
    pdf = await getDocumentProxy(new Uint8Array(data), { verbosity: 0 });
  } catch (error) {
    const name = (error as { name?: unknown }).name;
    if (name === "PasswordException") {
      throw new ConversionError(`${label}: ${described} is encrypted with a password; decrypt it first.`, {
        reason: "unreadable",
        source: described,
        cause: error,
      });
    }
    const message = error instanceof Error ? error.message : String(error);
    throw new ConversionError(`${label}: ${described} is not a readable PDF (${message}).`, {
      reason: "corrupt",
      source: described,
      cause: error,
    });
  }
  try {
    if (pdf.numPages > options.maxPages) {
      throw new ConversionError(
        `${label}: ${described} has ${pdf.numPages} pages, over maxPages (${options.maxPages}). Raise the maxPages option or split the PDF.`,
        { reason: "too_large", source: described },
      );
    }
    const pages: string[] = [];
    for (let number = 1; number <= pdf.numPages; number++) {
      options.signal?.throwIfAborted();
      const page = await pdf.getPage(number);
      const content = await page.getTextContent();
      let text = "";
      for (const item of content.items as readonly TextItem[]) {
        if (item.str !== undefined) text += item.str;
        if (item.hasEOL === true) text += "\n";
      }
      pages.push(text);
      page.cleanup();
    }
    return pages;
  } finally {
    await pdf.loadingTask.destroy();
  }
}
