import { inTransaction } from '../../server/db/tx';
import { insertDocuments } from '../../server/content/store';
import type { IncomingDocument } from '../../server/documents/incoming';
import type { Harness } from './harness';

/**
 * Shared by the content suites (documents, sources, boards): documents written the way
 * ingestion writes them (insertDocuments in a transaction), and the calls every suite makes.
 */

/** The harness clock's start (2025-03-03T10:00:00Z), in unix seconds. */
export const T0 = Date.parse('2025-03-03T10:00:00.000Z') / 1000;
export const HOUR = 3600;

/** A plain news item published `hoursAgo` before T0. */
export const news = (
  key: string,
  title: string,
  text: string,
  hoursAgo = 1,
  extra: Partial<IncomingDocument> = {},
): IncomingDocument => ({
  dedupe_key: key,
  title,
  url: `https://news.example.com/${key}`,
  unix: T0 - hoursAgo * HOUR,
  html: `<p>${text}</p>`,
  text: null,
  ...extra,
});

export const addDocs = (
  h: Harness,
  sourceId: string,
  items: IncomingDocument[],
  baseUrl?: string,
) =>
  inTransaction(h.db, (trx) =>
    insertDocuments(trx, sourceId, items, { now: h.clock.now, baseUrl }),
  );

/** A fresh account and its id token. */
export const newUser = async (h: Harness, name = 'Ada Lovelace') => {
  const { session } = await h.signUp(name);
  return { token: session.id_token, userId: session.user.id };
};

export const follow = async (h: Harness, token: string, key: string) => {
  const res = await h.call('POST', '/connect/public', { token, body: { key } });
  if (res.status !== 200) throw new Error(`follow ${key}: ${JSON.stringify(res.body)}`);
  return res.body;
};

export const unfollow = (h: Harness, token: string, key: string) =>
  h.call('POST', '/connect/public', { token, body: { key, delink: true } });

/** The user's change log after `after`. */
export const changesOf = async (h: Harness, token: string, after = 0) =>
  (await h.call('GET', `/sync/changes?after=${after}&limit=500`, { token })).body.changes as Array<{
    seq: number;
    entity: string;
    entity_id: string;
    op: string;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    data: any;
  }>;

/** Titles of a feed page, newest first. */
export const feedTitles = async (h: Harness, token: string, board = 'home', query = '') =>
  (
    (await h.call('GET', `/boards/${board}/v2?num_docs=100${query}`, { token })).body.results
      .documents as Array<{ title: string }>
  ).map((d) => d.title);
