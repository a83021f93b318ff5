// Passages of a readable size: short paragraphs are joined up to TARGET characters, long ones
// cut at sentence ends near TARGET (never past MAX unless one sentence is longer).

export const TARGET_CHARS = 700;
export const MAX_CHARS = 1400;

// Control characters (but tab, line feed, form feed and carriage return, which are white
// space), the soft hyphen and the byte order mark: never part of a passage's text.
// eslint-disable-next-line no-control-regex
const INVISIBLE = /[\u0000-\u0008\u000b\u000e-\u001f\u00ad\ufeff]/g;

export function clean(text: string): string {
  return text.replace(INVISIBLE, '').replace(/\s+/g, ' ').trim();
}

const SENTENCE_END = /(?<=[.!?][)"'\u2019\u201d\]]?)\s+(?=[A-Z0-9"'([\u2018\u201c])/g;

export function sentences(text: string): string[] {
  return text.split(SENTENCE_END).filter((s) => s.length > 0);
}

function splitLong(text: string): string[] {
  if (text.length <= MAX_CHARS) return [text];
  const out: string[] = [];
  let cur = '';
  for (const s of sentences(text)) {
    if (cur && cur.length + 1 + s.length > TARGET_CHARS) {
      out.push(cur);
      cur = '';
    }
    cur = cur ? `${cur} ${s}` : s;
    while (cur.length > MAX_CHARS * 2) {
      // One "sentence" with no end (a list run together): cut at a space.
      const cut = cur.lastIndexOf(' ', MAX_CHARS);
      const at = cut > TARGET_CHARS / 2 ? cut : MAX_CHARS;
      out.push(cur.slice(0, at).trim());
      cur = cur.slice(at).trim();
    }
  }
  if (cur) out.push(cur);
  return out;
}

/** Paragraphs (already cleaned or not) into passage texts. */
export function chunkParagraphs(paragraphs: Iterable<string>): string[] {
  const out: string[] = [];
  let cur = '';
  for (const raw of paragraphs) {
    const p = clean(raw);
    if (!p) continue;
    if (p.length > MAX_CHARS) {
      if (cur) out.push(cur);
      cur = '';
      out.push(...splitLong(p));
      continue;
    }
    if (cur && cur.length + 1 + p.length > TARGET_CHARS) {
      out.push(cur);
      cur = '';
    }
    cur = cur ? `${cur} ${p}` : p;
  }
  if (cur) out.push(cur);
  return out;
}

/** A table row with its header row's context: "Header | Header\nCell | Cell". */
export function tableRowText(header: string[] | undefined, cells: string[]): string {
  const cleaned = cells.map(clean);
  while (cleaned.length > 1 && !cleaned[cleaned.length - 1]) cleaned.pop();
  const row = cleaned.join(' | ');
  if (!header || header.length === 0) return row;
  const head = header.map(clean);
  while (head.length > 1 && !head[head.length - 1]) head.pop();
  return `${head.join(' | ')}\n${row}`;
}
