import { documents, type DocumentDetail } from '../../contract/documents';
import { ApiError } from '../api-client';
import type { Mirror } from '../mirror';
import { sessionChanged } from '../api-errors';
import { defineWorkerDomain } from '../registry';
import { feedKeysOfDocs } from './feed-store';
import {
  deeplinksOf,
  ensureReadList,
  pullReadList,
  READ_STORE,
  readStates,
  readWrites,
  type S,
} from './read-state';
import { searchRowsOfDocs } from './search-store';

const DOCS = 'documents' satisfies S;
/** More changed deeplinks than this: the feeds are told to re-read whole (no index walk). */
const FEED_KEYS_LOOKUP_MAX = 200;

/**
 * Documents: the whole document a preview shows (kept once fetched: a document does not
 * change) and the user's read state (read-state.ts). Marking read or unread is optimistic
 * through the outbox: the mirror changes at once, every tab hears of it (the read-state store
 * and the feed and search rows showing those documents), and a refusal puts it back.
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
      const [read] = await readStates(mirror as Mirror<string>, [deeplink]);
      return { ...doc, read };
    },
    async 'doc.readState'(ctx, { deeplinks }) {
      await ensureReadList(ctx, true);
      const states = await readStates((await ctx.mirror) as Mirror<string>, deeplinks);
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
  watch: {
    // The feed rows showing these documents carry their read state: their tabs re-read them.
    async read_status(keys, { mirror, emit }) {
      const deeplinks = keys === null ? null : deeplinksOf(keys);
      if (deeplinks?.length === 0) return;
      const rows =
        deeplinks === null || deeplinks.length > FEED_KEYS_LOOKUP_MAX
          ? null
          : await feedKeysOfDocs((await mirror) as Mirror<string>, deeplinks);
      const found =
        deeplinks === null || deeplinks.length > FEED_KEYS_LOOKUP_MAX
          ? null
          : await searchRowsOfDocs((await mirror) as Mirror<string>, deeplinks);
      if (found?.length !== 0) emit({ type: 'changed', store: 'search_results', keys: found });
      if (rows?.length === 0) return;
      emit({ type: 'changed', store: 'feed_entries', keys: rows });
    },
  },
  async refresh(ctx) {
    await pullReadList(ctx);
  },
});
