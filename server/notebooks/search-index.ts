import { randomUUID } from 'node:crypto';
import { noteText, type Note } from '../../contract/notebooks';
import { FeedTouches } from '../boards';
import { insertDocuments } from '../content';
import type { Db } from '../db/schema';
import { reserveSeqs } from '../documents';
import { engineFor } from '../search';
import { iso } from '../time';

/**
 * Notes are documents to search (002 §1: "notes are documents"): each note is kept as one
 * document of the user's own notes source (`{product}_notebooks_<user id>`, private to them and
 * not followed, so it stays out of the home feed), written through the one write pipeline
 * (content/store.ts insertDocuments: sanitised, numbered, indexed for search and for the
 * assistant's retrieval). Search's "My Data" reads what the user owns, so a note is found by its
 * words at once. An edit replaces the note's document (same deeplink: the dedupe key is the
 * note's id); a delete takes it out of the index and out of any feed its words matched.
 *
 * Lock order (documents/sequence.ts): the content counter first, then user rows. Every note
 * write takes `lockContent` before anything else.
 */

export const notesSourceKey = (product: string, userId: string) => `${product}_notebooks_${userId}`;
export const dedupeKey = (noteId: string) => `note:${noteId}`;

/** The user's notes source, made on first use (never followed: no home feed entries). */
async function notesSource(db: Db, product: string, userId: string, now: number) {
  const key = notesSourceKey(product, userId);
  const found = await db
    .selectFrom('sources')
    .select('id')
    .where('key', '=', key)
    .executeTakeFirst();
  if (found) return found.id;
  await db
    .insertInto('sources')
    .values({
      id: randomUUID(),
      key,
      kind: 'builtin',
      label: 'Notebooks',
      url: null,
      site_url: null,
      category: 'rss_news',
      category_tab: 'documents',
      market: null,
      grp: null,
      thumbnail: null,
      flag: 'notebooks',
      public: 0,
      owner_user_id: userId,
      created_at: iso(now),
    })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  return (
    await db.selectFrom('sources').select('id').where('key', '=', key).executeTakeFirstOrThrow()
  ).id;
}

/** Takes the notes' documents out: the index, the feeds their words reached, the rows. */
export async function unindexNotes(
  db: Db,
  product: string,
  userId: string,
  noteIds: readonly string[],
  now: number,
): Promise<void> {
  if (noteIds.length === 0) return;
  const docs = await db
    .selectFrom('documents as d')
    .innerJoin('sources as s', 's.id', 'd.source_id')
    .select(['d.id', 'd.seq'])
    .where('s.key', '=', notesSourceKey(product, userId))
    .where('d.owner_user_id', '=', userId)
    .where(
      'd.dedupe_key',
      'in',
      noteIds.map((id) => dedupeKey(id)),
    )
    .execute();
  if (docs.length === 0) return;
  const ids = docs.map((d) => d.id);
  await engineFor(db).unindex(
    db,
    docs.map((d) => ({ id: d.id, seq: Number(d.seq) })),
  );
  const feeds = await db
    .selectFrom('feed_entries')
    .select(['feed_id'])
    .distinct()
    .where('document_id', 'in', ids)
    .where('removed', '=', 0)
    .execute();
  if (feeds.length) {
    const seq = await reserveSeqs(db, 1);
    const touches = new FeedTouches();
    for (const { feed_id } of feeds) touches.add(userId, feed_id, seq);
    await touches.notify(db, now);
  }
  await db.deleteFrom('feed_entries').where('document_id', 'in', ids).execute();
  await db.deleteFrom('documents').where('id', 'in', ids).execute();
}

/** The note as it now stands, made searchable (its earlier document replaced). */
export async function indexNote(
  db: Db,
  product: string,
  userId: string,
  note: Note,
  now: number,
): Promise<void> {
  await unindexNotes(db, product, userId, [note.id], now);
  const text = noteText(note.document);
  const sourceId = await notesSource(db, product, userId, now);
  await insertDocuments(
    db,
    sourceId,
    [
      {
        dedupe_key: dedupeKey(note.id),
        title: note.name,
        url: null,
        unix: Math.floor(Date.parse(note.updated_at) / 1000),
        html: null,
        text: text || note.name,
        category_tab: 'documents',
      },
    ],
    { now },
  );
}
