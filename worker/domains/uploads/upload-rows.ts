import type { UploadRow } from '../../../contract/upload-client';
import {
  UPLOAD_ERROR_TEXT,
  UPLOAD_FINAL_STATUSES,
  type ReportType,
  type UploadConfig,
} from '../../../contract/uploads';
import type { TimerId } from '../../deps';
import type { PatchItem } from '../../mirror';
import type { DomainCtx } from '../../registry';

/**
 * The uploads domain's records and state: every file is a record of `uploads` (its progress
 * kept in memory while it is sent, written per PROGRESS_STEP), the state per workspace, and the
 * writes that tell the tabs.
 */

export type S = 'uploads' | 'kv';
export const STORE = 'uploads';
export const CONFIG_KEY = (reportType: ReportType | undefined) => `#config:${reportType ?? ''}`;

/** Progress is written to the mirror at most this often per file (every 10 %). */
export const PROGRESS_STEP = 10;

/** Browser workers (SharedWorker, Worker) cannot stream a request body over HTTP/1.1. */
export const inBrowserWorker = () =>
  typeof (globalThis as { WorkerGlobalScope?: unknown }).WorkerGlobalScope !== 'undefined';

export type PollState = {
  timer: TimerId | null;
  /** The next wait. */
  wait: number;
  /** Waited so far in this round of polling. */
  waited: number;
};

export type State = {
  /** Config per report type, once fetched (cached forever, 001 §7). */
  configs: Map<string, Promise<UploadConfig>>;
  poll: PollState;
  /** Progress of files being sent (kept here; the mirror gets it per PROGRESS_STEP). */
  rows: Map<string, UploadRow>;
  /** The user `rows` belong to (another user's session starts them over). */
  user: string | null;
  /** Whether files still processing from an earlier worker have had their poll started. */
  resumed: boolean;
};
export type Ctx = DomainCtx<S, State>;

export const isFinal = (row: UploadRow) =>
  UPLOAD_FINAL_STATUSES.includes(row.status) || row.status === 'UPLOADING_ERROR';

/** The rows kept in memory, for the current user only. */
export function memory(ctx: Ctx): Map<string, UploadRow> {
  const user = ctx.owner()?.user_id ?? null;
  if (ctx.state.user !== user) {
    ctx.state.rows.clear();
    ctx.state.user = user;
  }
  return ctx.state.rows;
}

export async function allRows(ctx: Ctx): Promise<UploadRow[]> {
  const mirror = await ctx.mirror;
  const stored = (await mirror.getAll<UploadRow>(STORE)).filter(
    (r): r is UploadRow => typeof r === 'object' && r !== null && 'status' in r,
  );
  const byId = new Map(stored.map((r) => [r.id, r]));
  for (const [id, row] of memory(ctx)) byId.set(id, row);
  return [...byId.values()].sort((a, b) => b.started_at - a.started_at || (a.id < b.id ? -1 : 1));
}

/** Writes rows (the mirror, then the 'changed' event naming them). */
export async function put(ctx: Ctx, rows: UploadRow[]) {
  if (rows.length === 0) return;
  const owner = ctx.owner();
  if (!owner) return;
  for (const row of rows) memory(ctx).set(row.id, row);
  const items: PatchItem<S>[] = rows.map((row) => ({ store: STORE, key: row.id, value: row }));
  await ctx.reads.store(items, owner);
}

export const rowOf = (ctx: Ctx, id: string) => memory(ctx).get(id);

export async function fail(ctx: Ctx, ids: string[], text: string) {
  const rows = ids
    .map((id) => rowOf(ctx, id))
    .filter((r): r is UploadRow => !!r)
    .map((r) => ({ ...r, status: 'UPLOADING_ERROR' as const, error: text }));
  await put(ctx, rows);
  ctx.emit({ type: 'toast', kind: 'error', message: UPLOAD_ERROR_TEXT.toast });
}
