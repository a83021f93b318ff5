import { documents, MARK_ALL_READ_LIMIT, type DocumentDetail } from '../../contract/documents';
import { ApiError } from '../api-client';
import { sessionChanged } from '../api-errors';
import { defineWorkerDomain } from '../registry';
import {
  ensureReadList,
  pullReadList,
  READ_STORE,
  readStates,
  readWrites,
  type S,
} from './read-state';

declare module '../registry' {
  interface DomainOffers {
    /** Whether each document is read, from the mirror (absent: unread). */
    'read.states'(deeplinks: readonly string[]): Promise<boolean[]>;
    /**
     * The read list pulled once per mirror (wait: awaited the first time, offline tolerated);
     * in the background after that. For the domains whose rows carry the read state.
     */
    'read.ensureList'(wait: boolean): Promise<void>;
  }
}

const DOCS = 'documents' satisfies S;

/**
 * What each mark-all-read of this worker marked in the mirror, by the tab's `mark_id`, until its
 * answer: while offline the op answers with these, so the tab can offer Undo all the same.
 */
const markedHere = new Map<string, string[]>();

/**
 * Documents: the whole document a preview shows (kept once fetched: a document does not
 * change) and the user's read state (read-state.ts). Marking read or unread is optimistic
 * through the outbox: the mirror changes at once, every tab hears of it (the read-state store;
 * the domains showing documents follow it: feed and search rows), and a refusal puts it back.
 */
export const documentsDomain = defineWorkerDomain(documents, {
  stores: {
    documents: { keyPath: 'deeplink', version: 1 },
    read_status: { keyPath: null, version: 1 },
  },
  reads: {
    async 'doc.get'(ctx, { source, deeplink }, conn) {
      const mirror = await ctx.mirror;
      let doc = await mirror.get<DocumentDetail>(DOCS, deeplink);
      if (!doc) {
        doc = await ctx.reads.once(`doc.${deeplink}`, async (owner) => {
          const answer = await ctx.client.call('doc', {
            params: { source },
            query: { deeplink },
            variant: conn.variant,
            signal: ctx.signal(),
          });
          const found = answer.results.find((d) => d.deeplink === deeplink) ?? answer.results[0];
          if (!found) throw new ApiError(404, 'not_found', `no document ${deeplink}`);
          if (
            !(await ctx.reads.store([{ store: DOCS, key: deeplink, value: found }], owner, false))
          )
            throw sessionChanged('doc.get');
          return found;
        });
      }
      const [read] = await readStates(mirror, [deeplink]);
      return { ...doc, read };
    },
    async 'doc.readState'(ctx, { deeplinks }) {
      await ensureReadList(ctx, true);
      const states = await readStates(await ctx.mirror, deeplinks);
      return Object.fromEntries(deeplinks.map((d, i) => [d, states[i]]));
    },
  },
  mutations: {
    'doc.setRead': {
      endpoint: 'readStatus',
      // One queue for every mark, so the last one the user made is the one that stands.
      orderKey: () => 'read',
      optimistic: (_ctx, { deeplinks, status }) => readWrites(deeplinks, status === 'read'),
      deferred: () => undefined,
    },
    'doc.markAllRead': {
      endpoint: 'markAllRead',
      params: ({ board }) => ({ id: board }),
      body: ({ before, tab, source }) => ({ before, tab, source }),
      // In line with single marks: the last thing the user did to read state is what stands.
      orderKey: () => 'read',
      async optimistic(ctx, input) {
        // The feed's entries are the boards domain's: it answers which of them are unread.
        const marked = await ctx.ask('feed.unreadBefore', input, MARK_ALL_READ_LIMIT);
        if (input.mark_id) markedHere.set(input.mark_id, marked);
        return readWrites(marked, true);
      },
      confirm: (input, result) => {
        if (input.mark_id) markedHere.delete(input.mark_id);
        return readWrites(result.deeplinks, true);
      },
      output: (result) => result,
      // Offline: the documents the mirror marked are what an undo restores meanwhile.
      deferred: (_ctx, { mark_id }) => {
        const marked = (mark_id && markedHere.get(mark_id)) || [];
        if (mark_id) markedHere.delete(mark_id);
        return { deeplinks: marked, has_more: false };
      },
    },
    'doc.markUnread': {
      endpoint: 'markUnread',
      orderKey: () => 'read',
      optimistic: (_ctx, { deeplinks }) => readWrites(deeplinks, false),
      deferred: () => undefined,
    },
  },
  offers: {
    'read.states': async (ctx, deeplinks) => readStates(await ctx.mirror, deeplinks),
    'read.ensureList': ensureReadList,
  },
  changes: {
    read_status(change, tx) {
      const read = change.op === 'upsert' && change.data.read;
      tx.put(
        READ_STORE,
        change.op === 'upsert' ? change.data.deeplink : change.id,
        read || undefined,
      );
    },
  },
  async refresh(ctx) {
    await pullReadList(ctx);
  },
});
