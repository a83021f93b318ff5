/**
 * How the PDF viewer reads a file by ranges (pdf-viewer.tsx, pdfjs.ts): in chunks of pdf.js's
 * default size, 64 KiB. The viewer's first read is one chunk from the start; pdf.js then asks
 * for the chunks holding what it needs (the cross-reference table at the end, a page's objects).
 */
export const PDF_RANGE_CHUNK = 65_536;
