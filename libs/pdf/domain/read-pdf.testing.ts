import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

/**
 * The PDF read back by PDF.js (pdfjs-dist), in a Node process of its own: pdfjs-dist is ESM-only, which
 * Jest (CommonJS here) does not load untransformed. Per page: its text and its text items' positions.
 */
export interface ReadPdf {
  pages: Array<{ text: string; width: number; items: Array<{ str: string; x: number; width: number }> }>;
  info: Record<string, unknown>;
  outline: Outline[];
}
interface Outline {
  title: string;
  items: Outline[];
}

const READER = `
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const doc = await getDocument({ data: new Uint8Array(Buffer.concat(chunks)), verbosity: 0 }).promise;
const pages = [];
for (let n = 1; n <= doc.numPages; n++) {
  const page = await doc.getPage(n);
  const items = (await page.getTextContent()).items.filter((item) => 'str' in item);
  pages.push({
    text: items.map((item) => item.str + (item.hasEOL ? '\\n' : '')).join(''),
    width: page.view[2],
    items: items.map((item) => ({ str: item.str, x: item.transform[4], width: item.width })),
  });
}
const outline = (items) => (items ?? []).map((item) => ({ title: item.title, items: outline(item.items) }));
const { info } = await doc.getMetadata();
process.stdout.write(JSON.stringify({ pages, info, outline: outline(await doc.getOutline()) }));
`;

export function readPdf(bytes: Uint8Array): ReadPdf {
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', READER], {
    input: bytes,
    cwd: resolve(__dirname, '../../..'),
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(out.toString('utf8'));
}
