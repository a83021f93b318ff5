import type { UploadRow } from '../../../contract/upload-client';
import {
  UPLOAD_FINAL_STATUSES,
  UPLOAD_POLL_CAP_MS,
  UPLOAD_POLL_START_MS,
  type UploadedFile,
} from '../../../contract/uploads';
import { allRows, put, type Ctx } from './upload-rows';

/**
 * The status poll, one for every file of every tab (001 §4): 5 s, doubling, the last wait cut
 * so the waits add up to 120 s, stopping once no file is PROCESSING or UPLOADED; each answer
 * written with applyServer.
 */

/** The server's word on files: their status (at least `floor`, PROCESSING after complete). */
export async function applyServer(
  ctx: Ctx,
  files: UploadedFile[],
  floor: 'PROCESSING' | null,
  feedId: string | null,
) {
  const rows = await allRows(ctx);
  const byKey = new Map(rows.filter((r) => r.key).map((r) => [r.key as string, r]));
  const changed: UploadRow[] = [];
  for (const f of files) {
    const row = byKey.get(f.key) ?? rows.find((r) => r.id === f.id);
    if (!row) continue;
    const final = UPLOAD_FINAL_STATUSES.includes(f.status);
    const status = final ? f.status : (floor ?? f.status);
    const next: UploadRow = {
      ...row,
      status,
      progress: 100,
      error: f.status === 'FAILED' ? (f.error ?? row.error) : null,
      feed_id: f.feed_id ?? feedId ?? row.feed_id,
      deeplink: f.deeplink ?? row.deeplink,
      key: f.key,
    };
    if (JSON.stringify(next) !== JSON.stringify(row)) changed.push(next);
  }
  await put(ctx, changed);
}

/** Starts (or starts over) the one poll: 5 s, doubling, up to 120 s waited in all. */
export function startPolling(ctx: Ctx) {
  const poll = ctx.state.poll;
  if (poll.timer !== null) ctx.clock.clearTimeout(poll.timer);
  poll.wait = UPLOAD_POLL_START_MS;
  poll.waited = 0;
  schedule(ctx);
}

function schedule(ctx: Ctx) {
  const poll = ctx.state.poll;
  const wait = Math.min(poll.wait, UPLOAD_POLL_CAP_MS - poll.waited);
  if (wait <= 0) {
    poll.timer = null;
    return;
  }
  poll.timer = ctx.clock.setTimeout(() => {
    poll.timer = null;
    poll.waited += wait;
    poll.wait *= 2;
    ctx.track(pollOnce(ctx));
  }, wait);
}

async function pollOnce(ctx: Ctx) {
  const pending = (await allRows(ctx)).filter(
    (r) => r.key && (r.status === 'PROCESSING' || r.status === 'UPLOADED'),
  );
  if (pending.length === 0) return;
  try {
    const answer = await ctx.client.call('uploadStatus', {
      query: { keys: pending.map((r) => r.key as string).join(',') },
      background: true,
      signal: ctx.signal(),
    });
    await applyServer(ctx, answer.files, null, answer.feed_id);
  } catch {
    // A failed poll waits for the next round.
  }
  const still = (await allRows(ctx)).some(
    (r) => r.key && (r.status === 'PROCESSING' || r.status === 'UPLOADED'),
  );
  if (still && ctx.state.poll.timer === null) schedule(ctx);
}
