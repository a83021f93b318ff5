// Plain text and Markdown: paragraphs (blank-line separated) as passages; Markdown's tables as
// table rows with their header, its headings' marks and fences dropped, the first heading as
// the title.

import { chunkParagraphs, clean, tableRowText } from './chunk';
import type { ExtractedPassage } from './index';

/** The file as UTF-8; throws when it is not (detection looked at its head only). */
export function decodeText(data: Uint8Array): string {
  return new TextDecoder('utf-8', { fatal: true }).decode(data).replace(/^\ufeff/, '');
}

export function extractPlain(text: string): ExtractedPassage[] {
  const paragraphs = text.split(/\r?\n[ \t]*\r?\n|\f/);
  return chunkParagraphs(paragraphs).map((t) => ({ text: t, kind: 'text' as const }));
}

function cellsOf(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split(/(?<!\\)\|/)
    .map((c) => clean(c.replace(/\\\|/g, '|')));
}

function inline(text: string): string {
  return text
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/`([^`]+)`/g, '$1');
}

export function extractMarkdown(text: string): { title?: string; passages: ExtractedPassage[] } {
  const passages: ExtractedPassage[] = [];
  let title: string | undefined;
  let paras: string[] = [];
  let para: string[] = [];
  const endPara = () => {
    if (para.length) paras.push(para.join(' '));
    para = [];
  };
  const flush = () => {
    endPara();
    for (const t of chunkParagraphs(paras)) passages.push({ text: t, kind: 'text' });
    paras = [];
  };
  const lines = text.split(/\r?\n/);
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const fenceMark = /^\s*(```|~~~)/.exec(line);
    if (fenceMark) {
      endPara();
      fence = fence ? null : fenceMark[1]!;
      continue;
    }
    if (fence) {
      para.push(line);
      continue;
    }
    // A table: a row of cells, then a separator row of dashes.
    if (
      line.includes('|') &&
      /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/.test(lines[i + 1] ?? '')
    ) {
      flush();
      const header = cellsOf(line).map(inline);
      passages.push({ text: tableRowText(undefined, header), kind: 'table-row' });
      i += 2;
      while (i < lines.length && lines[i]!.includes('|') && lines[i]!.trim()) {
        passages.push({
          text: tableRowText(header, cellsOf(lines[i]!).map(inline)),
          kind: 'table-row',
        });
        i++;
      }
      i--;
      continue;
    }
    const heading = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      endPara();
      const h = clean(inline(heading[2]!));
      title ??= h || undefined;
      para.push(h);
      endPara();
      continue;
    }
    if (!line.trim() || /^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) {
      endPara();
      continue;
    }
    para.push(inline(line.replace(/^\s*>\s?/, '')));
  }
  flush();
  return { title, passages };
}
