import { DEMO_ACCOUNT, findUserByEmail } from '../auth';
import type { Db } from '../db/schema';
import type { SeedContext } from '../domain';
import { BUILTIN_SOURCES } from '../catalogue';
import { generateCorpus } from './corpus';
import { homeFeedId } from '../boards';
import { setReadState } from '../documents';
import { insertDocuments } from '../content';
import { addNotification } from '../notifications';
import { iso } from '../time';
import { sourceTitle } from '../../contract/source-catalogue';

/** Documents per built-in source in the demo workspace (nine sources: a few hundred in all). */
export const DEMO_DOCS_PER_SOURCE = 40;
export const DEMO_CORPUS_SEED = 20250303;
/** The demo user has read this many of the newest documents of their feed. */
const DEMO_READ = 6;
/** Notifications about documents of the demo user's feed, the oldest few already read. */
const DEMO_NOTIFIED = 24;
const DEMO_NOTIFIED_READ = 4;

/**
 * The demo corpus: generated news, Indian and US filings and research in the built-in sources
 * (after the sources seed, so they fan out to the demo accounts' home feeds), a few of the
 * newest marked read for the demo user (when the database has one), and notifications about
 * the next ones.
 */
export const seedDocuments = async (db: Db, { now, product }: SeedContext) => {
  const corpus = generateCorpus({
    seed: DEMO_CORPUS_SEED,
    count: DEMO_DOCS_PER_SOURCE * BUILTIN_SOURCES.length,
    now,
    sources: BUILTIN_SOURCES.map((s) => ({ ...s, id: s.key })),
  });
  for (const [sourceId, items] of corpus) await insertDocuments(db, sourceId, items, { now });
  const demo = await findUserByEmail(db, DEMO_ACCOUNT.email);
  if (!demo) return;
  const newest = await db
    .selectFrom('feed_entries')
    .select('document_id')
    .where('feed_id', '=', homeFeedId(demo.id))
    .orderBy('unix', 'desc')
    .limit(DEMO_READ)
    .execute();
  await setReadState(
    db,
    demo.id,
    newest.map((r) => r.document_id),
    'read',
    now,
  );
  await notifyAbout(db, demo.id, product, now);
};

/** A document's first sentence (or its first 200 characters), for a notification's body. */
const firstSentence = (text: string) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  const end = /[.!?](\s|$)/.exec(flat);
  const sentence = end ? flat.slice(0, end.index + 1) : flat;
  return sentence.length <= 200 ? sentence : `${sentence.slice(0, 199).trimEnd()}…`;
};

/**
 * The demo inbox: "new in {source}" for documents of the demo user's feed that they have not
 * read (so each notification's company and figures are the document's own), each opening the
 * document's preview, dated a few minutes after it was published.
 */
const notifyAbout = async (db: Db, userId: string, product: string, now: number) => {
  const docs = await db
    .selectFrom('feed_entries as e')
    .innerJoin('documents as d', 'd.id', 'e.document_id')
    .select(['d.id', 'd.title', 'd.plain_text', 'd.source_key', 'd.unix'])
    .where('e.feed_id', '=', homeFeedId(userId))
    .orderBy('e.unix', 'desc')
    .orderBy('d.id')
    .offset(DEMO_READ)
    .limit(DEMO_NOTIFIED)
    .execute();
  // Newest first: each a few minutes after its document, and before the one after it (so the
  // inbox's order is the documents' order, with no ties).
  let next = now + 1000;
  const dated = docs.map((doc) => {
    next = Math.min(next - 1000, doc.unix * 1000 + 5 * 60_000);
    return { doc, at: next };
  });
  for (const [i, { doc, at }] of dated.entries()) {
    await addNotification(
      db,
      userId,
      {
        title: `New in ${sourceTitle(doc.source_key, product)}: ${doc.title}`,
        body: firstSentence(doc.plain_text),
        link: `/preview/${encodeURIComponent(doc.source_key)}/${encodeURIComponent(doc.id)}`,
        read: i >= dated.length - DEMO_NOTIFIED_READ,
        at: iso(at),
      },
      now,
    );
  }
};
