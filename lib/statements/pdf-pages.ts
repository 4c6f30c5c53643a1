import type { Readable, Writable } from "node:stream";
import { setImmediate, setTimeout as sleep } from "node:timers/promises";
import { assertOpen } from "@/lib/statements/closed";

// The page mechanics of the PDF export (lib/statements/pdf.ts), whose pages are not buffered: each is
// sent as the next begins.

/** Pages written but not yet taken by the client, above which the rendering waits for it. */
export const MAX_UNSENT_BYTES = 2 ** 20;

type PageDecoration = {
  /** The running header, at the top of every page. */
  header: string;
  /** "Page n", at the bottom right. */
  pageLabel: (page: number) => string;
  /** The page's left and right margin; header and footer sit in the top and bottom ones. */
  margin: number;
  /** A registered font, for header and footer. */
  font: string;
  /** Puts back the font the content was being written in. */
  restoreFont: () => void;
};

/** Resolves once the client has taken all but MAX_UNSENT_BYTES of what was written (it reads at its pace). */
export async function clientCaughtUp(pdf: Readable, out: Writable): Promise<void> {
  await setImmediate(); // the pipe moves on its own turns, which lines read without I/O would never leave
  while (pdf.readableLength + out.writableLength > MAX_UNSENT_BYTES) {
    assertOpen(out);
    await sleep(10);
  }
}

type CachingFont = { layoutCache: Record<string, unknown> };

/**
 * The document's fonts that keep the layout of every word written (`layoutCache`: not a public API, the
 * test tests/unit/statements/pdf-streaming.test.ts holds pdfkit to it).
 */
export function cachingFonts(pdf: PDFKit.PDFDocument): CachingFont[] {
  const fonts = (pdf as unknown as { _fontFamilies?: Record<string, Partial<CachingFont>> })._fontFamilies;
  return Object.values(fonts ?? {}).filter((font): font is CachingFont => font.layoutCache !== undefined);
}

/**
 * Kept for the whole document, the layouts hold every operation id, time and amount written, ~3 KB a
 * posting; without them (`fontLayoutCache: false`) rendering is ~6 times slower. Emptied as each page
 * begins, they hold one page's words.
 */
export function forgetLayouts(pdf: PDFKit.PDFDocument): void {
  for (const font of cachingFonts(pdf)) font.layoutCache = Object.create(null) as CachingFont["layoutCache"];
}

/**
 * Writes the running header and the page's number on every page as it begins (the number of pages is
 * not known then), then puts back the position and the font.
 */
export function decoratePages(
  pdf: PDFKit.PDFDocument,
  { header, pageLabel, margin, font, restoreFont }: PageDecoration,
): void {
  let page = 0;
  pdf.on("pageAdded", () => {
    const { x, y } = pdf;
    const bottom = pdf.page.margins.bottom;
    // Header and footer sit in the margins: without this pdfkit would start a new page for them.
    pdf.page.margins.bottom = 0;
    pdf.font(font).fontSize(7);
    const width = pdf.page.width - 2 * margin;
    pdf.text(header, margin, margin - 6, { width, lineBreak: false, height: 10 });
    pdf.text(pageLabel(++page), margin, pdf.page.height - margin, {
      width,
      align: "right",
      lineBreak: false,
      height: 10,
    });
    pdf.page.margins.bottom = bottom;
    restoreFont();
    pdf.x = x;
    pdf.y = y;
  });
}
