import type { Db } from '../db/schema';
import { OPEN_FILTER, type SearchScope } from './engine';
import { checkCandidates } from './scope-sql';

/**
 * Organisations as the index knows them (issue 16): every document may have a FILER, the
 * organisation it is about or speaks for (a 10-K says "we" and "the Company" for its filer), and
 * each filer has a key and the names a question may call it by. The assistant reads them to
 * recognise the organisations a question names and to keep another organisation's sentences out
 * of the answer.
 *
 * A document's filer is, in this order: its company_name on a filing (filings parsers, the demo
 * corpus's filings; a news story about a company is not the company's); else the organisation a filing title names ("NIKE Inc. 10-K 2023: Item 7", "Seagate Technology
 * Holdings plc Form 10-K (fiscal 2023)"); else the same read from its source's name ("Nike SEC
 * filings: 10-K"). A news article names no filer: its sentences count for an organisation only
 * where they name it.
 *
 * Names are matched as folded, lower-cased words; legal suffixes are read alike (Corporation =
 * Corp, Incorporated = Inc) and left out of the key: "NIKE, Inc." and "Nike Inc" are one filer,
 * key "nike". Aliases: the full name, the name without its suffixes, the leading words of it
 * (from a word that is not a common one: "palo alto" for Palo Alto Networks), and, matched only
 * when written in capitals, its initials (ADP for Automatic Data Processing) and a ticker a
 * document gives (security_id).
 */

/** Legal-form words, mapped to one spelling. */
const SUFFIX: Record<string, string> = {
  inc: 'inc',
  incorporated: 'inc',
  corp: 'corp',
  corporation: 'corp',
  co: 'co',
  company: 'co',
  cos: 'co',
  companies: 'co',
  ltd: 'ltd',
  limited: 'ltd',
  plc: 'plc',
  llc: 'llc',
  lp: 'lp',
  llp: 'llp',
  holdings: 'holdings',
  holding: 'holdings',
  group: 'group',
  sa: 'sa',
  ag: 'ag',
  nv: 'nv',
  se: 'se',
  spa: 'spa',
  bv: 'bv',
  gmbh: 'gmbh',
  ab: 'ab',
  asa: 'asa',
  oyj: 'oyj',
  kk: 'kk',
  pte: 'pte',
  pty: 'pty',
  the: 'the',
  class: 'class',
  new: 'new',
  del: 'del',
};

/**
 * Words too common to name an organisation alone: "News" of News Corp, "Western" of Western
 * Digital. A name starting with one is matched only with the word after it.
 */
const COMMON = new Set(
  `a an and the of for in on at to by with from new news general first american national
  international global united digital data technology technologies tech network networks system
  systems energy financial finance capital media health healthcare software solutions services
  service bank banks group holdings industries industrial partners resources communications one
  us usa north south east west western eastern northern southern central pacific atlantic
  universal standard advanced applied consolidated integrated royal premier summit pioneer
  alpha beta delta omega prime united great big best home life insurance mutual trust
  investment investments securities markets market trade trading energy power electric motors
  foods food retail brands products manufacturing semiconductor semiconductors micro
  microsystems therapeutics pharmaceuticals pharma bio biotech labs laboratories company
  companies corp corporation inc ltd limited plc co`.split(/\s+/),
);

/** Whether a one-word name is a common word ("news"), too common to name anyone alone. */
export const isCommonNameWord = (key: string) => COMMON.has(key);

/** Folded lower-case words of letters and digits (the original text's word boundaries). */
export const nameWords = (text: string): string[] =>
  (
    text
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  ).filter((w) => w !== 's');

const suffixOf = (w: string): string | null => SUFFIX[w] ?? null;

/** A name's word with its legal form in one spelling ("corporation" -> "corp"). */
export const normalizedNameWord = (w: string): string =>
  w === 'the' || w === 'new' || w === 'class' || w === 'del' ? w : (suffixOf(w) ?? w);

/** The name's words with suffixes in one spelling, and its core (suffixes left out). */
function nameParts(name: string): { full: string[]; core: string[] } {
  const words = nameWords(name).map((w) => suffixOf(w) ?? w);
  // "Class B" and the like.
  const cleaned: string[] = [];
  for (let i = 0; i < words.length; i++) {
    if (words[i] === 'class' && words[i + 1] && words[i + 1].length === 1) {
      i++;
      continue;
    }
    cleaned.push(words[i]);
  }
  const full = cleaned.filter((w) => w !== 'the');
  let end = full.length;
  while (end > 1 && SUFFIX[full[end - 1]]) end--;
  const core = full.slice(0, end);
  return { full, core };
}

/** The filer key of an organisation name: its core words ("NIKE, Inc." -> "nike"). */
export const entityKey = (name: string): string | null => {
  const { core } = nameParts(name);
  const key = core.join(' ');
  return key.length >= 2 ? key : null;
};

export type Alias = { alias: string; caps: boolean };

/** The names a question may call an organisation by (see the module's comment). */
export function aliasesOf(name: string, ticker?: string | null): Alias[] {
  const { full, core } = nameParts(name);
  const out = new Map<string, boolean>();
  const add = (words: string[], caps = false) => {
    const alias = words.join(' ');
    if (alias.length < 2) return;
    if (out.get(alias) === false) return;
    out.set(alias, caps);
  };
  add(full);
  add(core);
  // Leading words: "palo alto" of "palo alto networks"; not from a common word alone.
  for (let n = 1; n < core.length; n++) {
    const lead = core.slice(0, n);
    if (n === 1 && (COMMON.has(lead[0]) || lead[0].length < 3 || /^\d+$/.test(lead[0]))) continue;
    if (lead.every((w) => COMMON.has(w))) continue;
    add(lead);
  }
  // One word of a common kind names nothing alone: "News" needs "Corp".
  if (core.length === 1 && COMMON.has(core[0])) out.delete(core[0]);
  if (core.length >= 2) add([core.map((w) => w[0]).join('')], true);
  if (ticker && /^[A-Z][A-Z.]{0,5}$/.test(ticker.trim())) {
    add([ticker.trim().toLowerCase().replace(/\./g, '')], true);
  }
  return [...out].map(([alias, caps]) => ({ alias, caps }));
}

/** Form names a filing's title carries after its filer's name. */
const FORM =
  /^(.{2,80}?)[\s,:;–—-]*(?:\(|\b)(?:form\s+)?(?:10-K|10-Q|8-K|20-F|40-F|6-K|S-1|DEF\s*14A|annual\s+report|quarterly\s+report|half[- ]year(?:ly)?\s+report|sec\s+filings?|filings?)\b/i;

/** The organisation a filing title (or a filings source's name) names, else null. */
export function filerInTitle(title: string): string | null {
  // SEC EDGAR's own: "10-K - NIKE INC (0000320187) (Filer)".
  const edgar = /^[\w /-]{1,12}\s+-\s+(.+?)\s+\(\d{10}\)/.exec(title);
  if (edgar) return edgar[1].trim();
  const m = FORM.exec(title.trim());
  if (!m) return null;
  const name = m[1].replace(/[\s,:;–—(-]+$/, '').trim();
  const words = name.split(/\s+/);
  // A name: one to eight words, the first capitalised (not "Our annual report").
  if (words.length === 0 || words.length > 8 || !/^[\p{Lu}\p{N}]/u.test(name)) return null;
  if (/^(?:the|our|this|a|an|new|latest|recent)$/i.test(words[0]) && words.length === 1)
    return null;
  return name;
}

export type FilerInput = {
  company_name: string | null;
  title: string;
  source_label: string | null;
  /** The document's feed tab; absent: read as a filing. */
  category_tab?: string;
};

/**
 * A document's filer name (see the module's comment), or null for a document of no one. A
 * company_name makes a filer only on a filing (the exchanges tab): a news story or a broker's
 * note about a company is not the company speaking ("we" there is the paper or the broker), so
 * its sentences count for the company where they name it.
 */
export const filerOf = (doc: FilerInput): string | null =>
  ((doc.category_tab ?? 'exchanges') === 'exchanges' ? doc.company_name?.trim() : null) ||
  filerInTitle(doc.title) ||
  (doc.source_label ? filerInTitle(doc.source_label) : null);

// ---------------------------------------------------------------------------------------------
// The index's side: written with each batch (indexing.ts), read by the assistant.

export type EntityRow = { key: string; name: string; aliases: Alias[] };

/** A document's filer as the index keeps it: its key, name and aliases; null for none. */
export function entityOf(doc: FilerInput & { security_id?: string | null }): EntityRow | null {
  const name = filerOf(doc);
  if (!name) return null;
  const key = entityKey(name);
  if (!key) return null;
  return { key, name: name.slice(0, 200), aliases: aliasesOf(name, doc.security_id) };
}

/** Writes the filers of a batch (names and aliases), once per key and alias. */
export async function writeEntities(db: Db, rows: EntityRow[]): Promise<void> {
  const byKey = new Map<string, EntityRow>();
  for (const r of rows) if (!byKey.has(r.key)) byKey.set(r.key, r);
  if (byKey.size === 0) return;
  const entities = [...byKey.values()];
  for (let i = 0; i < entities.length; i += 200) {
    await db
      .insertInto('search_entities')
      .values(entities.slice(i, i + 200).map((e) => ({ key: e.key, name: e.name })))
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
  }
  const aliases = new Map<string, { alias: string; key: string; caps: number }>();
  for (const e of entities) {
    for (const a of e.aliases) {
      aliases.set(`${a.alias}\u0000${e.key}`, { alias: a.alias, key: e.key, caps: a.caps ? 1 : 0 });
    }
  }
  const list = [...aliases.values()];
  for (let i = 0; i < list.length; i += 200) {
    await db
      .insertInto('search_entity_aliases')
      .values(list.slice(i, i + 200))
      .onConflict((oc) => oc.columns(['alias', 'key']).doNothing())
      .execute();
  }
}

/** Known organisations whose aliases are among `phrases` (lower-cased word runs). */
export async function entitiesByAlias(
  db: Db,
  phrases: string[],
): Promise<Array<{ alias: string; key: string; caps: boolean; name: string }>> {
  if (phrases.length === 0) return [];
  const rows = await db
    .selectFrom('search_entity_aliases as a')
    .innerJoin('search_entities as e', 'e.key', 'a.key')
    .select(['a.alias', 'a.key', 'a.caps', 'e.name'])
    .where('a.alias', 'in', [...new Set(phrases)])
    .execute();
  return rows.map((r) => ({ ...r, caps: Number(r.caps) === 1 }));
}

/**
 * Known organisations whose key starts with a letter (a ticker's first letter), at most 200,
 * without those whose ticker a document gives (a capitals alias that is not their initials):
 * their ticker is known, no other is guessed for them.
 */
export async function entitiesStartingWith(
  db: Db,
  letter: string,
): Promise<Array<{ key: string; name: string }>> {
  const rows = await db
    .selectFrom('search_entities')
    .select(['key', 'name'])
    .where('key', '>=', letter)
    .where('key', '<', `${letter}\uffff`)
    .limit(200)
    .execute();
  if (rows.length === 0) return rows;
  const tickers = await db
    .selectFrom('search_entity_aliases')
    .select(['key', 'alias'])
    .where(
      'key',
      'in',
      rows.map((r) => r.key),
    )
    .where('caps', '=', 1)
    .execute();
  const initials = (key: string) =>
    key
      .split(' ')
      .map((w) => w[0])
      .join('');
  const known = new Set(tickers.filter((t) => t.alias !== initials(t.key)).map((t) => t.key));
  return rows.filter((r) => !known.has(r.key));
}

/** Most documents of one filer read for a question (the newest first). */
const ENTITY_DOCUMENTS = 400;

/** The newest documents of a filer that the scope holds (seq and id). */
export async function documentsOfEntity(
  db: Db,
  key: string,
  scope: SearchScope,
  limit = ENTITY_DOCUMENTS,
): Promise<Array<{ seq: number; document_id: string }>> {
  const rows = await db
    .selectFrom('search_meta')
    .select(['seq', 'document_id'])
    .where('entity', '=', key)
    .orderBy('seq', 'desc')
    .limit(limit)
    .execute();
  if (rows.length === 0) return [];
  const allowed = new Set(
    (
      await checkCandidates(
        db,
        rows.map((r) => Number(r.seq)),
        scope,
        OPEN_FILTER,
      )
    ).map((r) => r.seq),
  );
  return rows
    .map((r) => ({ seq: Number(r.seq), document_id: r.document_id }))
    .filter((r) => allowed.has(r.seq));
}

/** The filer keys of documents, by document id (null: a document of no one). */
export async function entitiesOfDocuments(
  db: Db,
  ids: readonly string[],
): Promise<Map<string, string | null>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('search_meta')
    .select(['document_id', 'entity'])
    .where('document_id', 'in', [...ids])
    .execute();
  return new Map(rows.map((r) => [r.document_id, r.entity ?? null]));
}

export const entitiesSchema = {
  sqlite: [
    `ALTER TABLE search_meta ADD COLUMN entity TEXT`,
    `CREATE INDEX search_meta_entity ON search_meta (entity, seq) WHERE entity IS NOT NULL`,
    `CREATE TABLE search_entities (key TEXT PRIMARY KEY, name TEXT NOT NULL) WITHOUT ROWID`,
    `CREATE TABLE search_entity_aliases (alias TEXT NOT NULL, key TEXT NOT NULL,
      caps INTEGER NOT NULL, PRIMARY KEY (alias, key)) WITHOUT ROWID`,
  ],
  postgres: [
    `ALTER TABLE search_meta ADD COLUMN entity text`,
    `CREATE INDEX search_meta_entity ON search_meta (entity, seq) WHERE entity IS NOT NULL`,
    `CREATE TABLE search_entities (key text COLLATE "C" PRIMARY KEY, name text NOT NULL)`,
    `CREATE TABLE search_entity_aliases (alias text NOT NULL, key text NOT NULL,
      caps integer NOT NULL, PRIMARY KEY (alias, key))`,
  ],
};
