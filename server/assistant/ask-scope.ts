import {
  scopeType,
  type AskQuery,
  type SessionMetadata,
  type SessionType,
} from '../../contract/assistant';
import { ownBoard } from '../boards';
import { attachedTarget } from './attachments';
import { notebookTarget } from './notebook-scope';
import type { Db } from '../db/schema';
import { visibleDocuments } from '../documents';
import { ApiError } from '../errors';
import { searchScope, type SearchScope } from '../search';
import { findVisible } from '../catalogue';

/**
 * Where a question is answered from, decided before the stream starts (a scope the user may
 * not read is a JSON 404, like every other call). The parts come from search/scope.ts
 * (`searchScope`, THE scope function); which kind of scope it is, the contract's `scopeType`
 * decides (the worker types a new chat with it too): the most specific first: documents, a
 * source, a group (channel), the web (`{product}_universe`: the public corpus), a feed; else
 * (`home` or nothing) "My Data", what the user follows and owns. The `!== undefined` checks
 * beside each kind only narrow the query's types.
 */
export type AskTarget = {
  scope: SearchScope;
  /** Only passages of these documents (document scope); null: any in the scope. */
  documentIds: string[] | null;
  type: SessionType;
  metadata: SessionMetadata;
  /** Where the steps say the search ran: "your data", "the feed “Rates”"... */
  label: string;
};

export type Viewer = { userId: string; product: string };

const quoted = (s: string) => `“${s}”`;

export async function resolveTarget(db: Db, viewer: Viewer, q: AskQuery): Promise<AskTarget> {
  const { userId, product } = viewer;
  const meta = (type: SessionType, extra: Partial<SessionMetadata> = {}): SessionMetadata => ({
    type,
    board_id: q.board_id ?? null,
    channel_id: q.channel_id ?? null,
    document_id: [],
    source: q.source ?? null,
    report_id: null,
    ...extra,
  });
  // Attachments (assistant-attachments): their files only, whatever else the query names.
  if (q.attachments_feed_id !== undefined) {
    const { type: _t, document_id: _d, ...rest } = meta('document');
    return attachedTarget(db, viewer, q.attachments_feed_id, rest);
  }
  // A notebook: its notes only (notebook-scope.ts).
  if (q.notebook_id !== undefined) {
    const { type: _t, document_id: _d, ...rest } = meta('document');
    return notebookTarget(db, viewer, q.notebook_id, rest);
  }
  const ids = [...new Set(q.document_id ?? [])];
  const type = scopeType({ ...q, document_id: ids }, product);
  if (type === 'document') {
    const rows = await visibleDocuments(db, userId)
      .select(['d.id', 'd.title'])
      .where('d.id', 'in', ids)
      .execute();
    const titles = new Map(rows.map((r) => [r.id, r.title]));
    const missing = ids.find((id) => !titles.has(id));
    if (missing) throw new ApiError(404, 'not_found', `no such document: ${missing}`);
    return {
      // A document the user may see is in what they follow or own: their data's scope.
      scope: await searchScope(db, viewer, {}),
      documentIds: ids,
      type: 'document',
      metadata: meta('document', { document_id: ids }),
      label: ids.length === 1 ? quoted(titles.get(ids[0])!) : `${ids.length} documents`,
    };
  }
  if (type === 'source' && q.source !== undefined) {
    const scope = await searchScope(db, viewer, { source: q.source });
    const source = await findVisible(db, userId, q.source);
    return {
      scope,
      documentIds: null,
      type: 'source',
      metadata: meta('source'),
      label: `the source ${quoted(source?.label ?? q.source)}`,
    };
  }
  if (type === 'channel' && q.channel_id !== undefined) {
    return {
      scope: await searchScope(db, viewer, { channel_id: q.channel_id }),
      documentIds: null,
      type: 'channel',
      metadata: meta('channel'),
      label: 'your group',
    };
  }
  if (type === 'web') {
    return {
      scope: { viewerId: userId, feeds: [], sourceIds: [], publicCorpus: true, ownedBy: null },
      documentIds: null,
      type: 'web',
      metadata: meta('web'),
      label: 'the public corpus',
    };
  }
  if (type === 'feed' && q.board_id !== undefined) {
    const board = await ownBoard(db, userId, q.board_id);
    return {
      scope: await searchScope(db, viewer, { board_id: q.board_id }),
      documentIds: null,
      type: 'feed',
      metadata: meta('feed'),
      label: `the feed ${quoted(board.name)}`,
    };
  }
  return {
    scope: await searchScope(db, viewer, {}),
    documentIds: null,
    type: 'all',
    metadata: meta('all'),
    label: 'your data',
  };
}
