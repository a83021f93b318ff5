// A small streaming-style XML tokenizer for the OOXML parts we read (document.xml, slides,
// sheets): tags by local name (the prefix is dropped, so transitional and strict files read
// alike), text with entities decoded. Comments, processing instructions and DOCTYPEs are
// skipped; CDATA is text. No DTD expansion, so no entity bombs.

export type XmlEvent =
  | { type: 'open'; name: string; attrs: string; selfClosing: boolean }
  | { type: 'close'; name: string }
  | { type: 'text'; text: string };

const TOKEN =
  /<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<!\[CDATA\[([\s\S]*?)\]\]>|<![^>]*>|<(\/?)([A-Za-z_][\w.:-]*)((?:[^>"']|"[^"]*"|'[^']*')*?)(\/?)>|([^<]+)/g;

function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
}

const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code =
        ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      if (
        !Number.isFinite(code) ||
        code <= 0 ||
        code > 0x10ffff ||
        (code >= 0xd800 && code <= 0xdfff)
      )
        return '';
      return String.fromCodePoint(code);
    }
    return NAMED[ref] ?? whole;
  });
}

export function* xmlEvents(xml: string): Generator<XmlEvent> {
  TOKEN.lastIndex = 0;
  const re = new RegExp(TOKEN.source, 'g');
  let m: RegExpExecArray | null;
  while ((m = re.exec(xml)) !== null) {
    if (m[1] !== undefined) {
      yield { type: 'text', text: m[1] };
    } else if (m[3] !== undefined) {
      const name = localName(m[3]);
      if (m[2] === '/') yield { type: 'close', name };
      else yield { type: 'open', name, attrs: m[4] ?? '', selfClosing: m[5] === '/' };
    } else if (m[6] !== undefined) {
      yield { type: 'text', text: decodeEntities(m[6]) };
    }
  }
}

/** The value of attribute `name` (matched by local name, so `r:id` is found as `id`). */
export function attr(attrs: string, name: string): string | undefined {
  const re = new RegExp(`(?:^|\\s)(?:[\\w.-]+:)?${name}\\s*=\\s*("([^"]*)"|'([^']*)')`);
  const m = re.exec(attrs);
  if (!m) return undefined;
  return decodeEntities(m[2] ?? m[3] ?? '');
}

/** Relationships part (`_rels/x.rels`): id → { target, type }. */
export function readRels(
  xml: string,
): Map<string, { target: string; type: string; external: boolean }> {
  const rels = new Map<string, { target: string; type: string; external: boolean }>();
  for (const ev of xmlEvents(xml)) {
    if (ev.type === 'open' && ev.name === 'Relationship') {
      const id = attr(ev.attrs, 'Id');
      const target = attr(ev.attrs, 'Target');
      if (id && target) {
        rels.set(id, {
          target,
          type: attr(ev.attrs, 'Type') ?? '',
          external: attr(ev.attrs, 'TargetMode') === 'External',
        });
      }
    }
  }
  return rels;
}

/** Resolves a relationship target against the part that holds the relationship. */
export function resolvePart(fromPart: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const base = fromPart.includes('/') ? fromPart.slice(0, fromPart.lastIndexOf('/') + 1) : '';
  const parts = (base + target).split('/');
  const out: string[] = [];
  for (const p of parts) {
    if (p === '..') out.pop();
    else if (p !== '.' && p !== '') out.push(p);
  }
  return out.join('/');
}
