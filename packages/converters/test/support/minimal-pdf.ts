/**
 * A minimal PDF writer for tests: pages of text lines in Helvetica (Latin-1), with a correct xref table,
 * so tests build their PDFs byte by byte instead of shipping binary fixtures.
 */

function escapePdfText(text: string): string {
  return text.replace(/[\\()]/g, (character) => `\\${character}`);
}

/**
 * Builds a PDF whose page `i` shows the lines `pages[i]` (an empty list gives a page without text).
 *
 * @param pages - the lines of each page
 */
export function buildPdf(pages: readonly (readonly string[])[]): Uint8Array {
  const objects: string[] = [];
  const add = (body: string) => objects.push(body);
  add(""); // 1: catalog, written below
  add(""); // 2: page tree, written below
  add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"); // 3
  const kids: number[] = [];
  for (const lines of pages) {
    const operations = lines
      .map((line, index) => `BT /F1 12 Tf 72 ${720 - index * 16} Td (${escapePdfText(line)}) Tj ET`)
      .join("\n");
    const content = add(
      `<< /Length ${Buffer.byteLength(operations, "latin1")} >>\nstream\n${operations}\nendstream`,
    );
    kids.push(
      add(
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${content} 0 R >>`,
      ),
    );
  }
  objects[0] = "<< /Type /Catalog /Pages 2 0 R >>";
  objects[1] = `<< /Type /Pages /Kids [${kids.map((kid) => `${kid} 0 R`).join(" ")}] /Count ${kids.length} >>`;
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(Buffer.byteLength(out, "latin1"));
    out += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, "latin1");
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(out, "latin1"));
}
