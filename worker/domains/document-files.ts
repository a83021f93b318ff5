import { DocResult } from '../../contract/documents';
import {
  documentFiles,
  SUMMARY_POLL_CAP_MS,
  SUMMARY_POLL_START_MS,
} from '../../contract/document-files';
import type { SummaryStatus } from '../../contract/extract';
import { ShareResult, UPLOAD_RAW_ROUTES } from '../../contract/uploads';
import { ApiError } from '../api-errors';
import type { ResponseLike, TimerId } from '../deps';
import { defineWorkerDomain, type DomainCtx } from '../registry';

/**
 * An uploaded document's file from the worker (contract/document-files.ts): its original bytes
 * as a Blob (download), byte ranges of it (the PDF viewer reads only the parts pdf.js asks
 * for: a Range request, 206, the file's size from Content-Range), share and revoke, delete, and its summary with ONE
 * status poll per document for every tab (5 s, doubling, 120 s in all, stopping at SUCCESS or
 * FAILED) into the store `summaries`. The shared document and its bytes are read without the
 * session's token (`auth: false`) with the public access key, so a signed-out tab reads them.
 */

type S = 'summaries' | 'kv';
const STORE = 'summaries';

type Poll = { timer: TimerId | null; wait: number; waited: number };
type State = { polls: Map<string, Poll> };
type Ctx = DomainCtx<S, State>;

const FINAL: ReadonlyArray<SummaryStatus['status']> = ['SUCCESS', 'FAILED', null];

/** The streamed answer gathered into one Blob (in a browser, kept by the Blob store). */
async function blobOf(response: ResponseLike): Promise<Blob> {
  const type = response.headers?.get('content-type') ?? 'application/octet-stream';
  const parts: BlobPart[] = [];
  const reader = response.body?.getReader();
  if (reader) {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value as Uint8Array<ArrayBuffer>);
    }
  }
  return new Blob(parts, { type });
}

/** The answer's bytes, read as they arrive into one array. */
async function bytesOf(response: ResponseLike): Promise<Uint8Array<ArrayBuffer>> {
  const parts: Uint8Array[] = [];
  let length = 0;
  const reader = response.body?.getReader();
  if (reader) {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
      length += value.length;
    }
  }
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** The file's size from a 206's `Content-Range: bytes a-b/size`; null when not given. */
const totalOf = (header: string | null): number | null => {
  const m = header ? /^bytes \d+-\d+\/(\d+)$/.exec(header.trim()) : null;
  return m ? Number(m[1]) : null;
};

async function keep(ctx: Ctx, status: SummaryStatus) {
  const owner = ctx.owner();
  if (owner) await ctx.reads.store([{ store: STORE, key: status.deeplink, value: status }], owner);
}

function schedule(ctx: Ctx, deeplink: string) {
  const poll = ctx.state.polls.get(deeplink);
  if (!poll || poll.timer !== null) return;
  const wait = Math.min(poll.wait, SUMMARY_POLL_CAP_MS - poll.waited);
  if (wait <= 0) {
    ctx.state.polls.delete(deeplink);
    return;
  }
  poll.timer = ctx.clock.setTimeout(() => {
    poll.timer = null;
    poll.waited += wait;
    poll.wait *= 2;
    ctx.track(pollOnce(ctx, deeplink));
  }, wait);
}

/** Starts polling a summary still being written (once per document, whatever tab asks). */
function watch(ctx: Ctx, status: SummaryStatus) {
  if (FINAL.includes(status.status) || ctx.state.polls.has(status.deeplink)) return;
  ctx.state.polls.set(status.deeplink, {
    timer: null,
    wait: SUMMARY_POLL_START_MS,
    waited: 0,
  });
  schedule(ctx, status.deeplink);
}

async function pollOnce(ctx: Ctx, deeplink: string) {
  try {
    const status = await ctx.client.call('summaryStatus', {
      query: { deeplink },
      background: true,
      signal: ctx.signal(),
    });
    await keep(ctx, status);
    if (FINAL.includes(status.status)) {
      ctx.state.polls.delete(deeplink);
      return;
    }
  } catch {
    // A failed poll waits for the next round.
  }
  schedule(ctx, deeplink);
}

export const documentFilesDomain = defineWorkerDomain(documentFiles, {
  state: (): State => ({ polls: new Map() }),
  stores: { summaries: { keyPath: null, version: 1 } },
  reads: {
    async 'docFile.original'(ctx, { source, deeplink, public_access_key }, conn) {
      const response = await ctx.client.send(
        {
          method: UPLOAD_RAW_ROUTES.download.method,
          path: UPLOAD_RAW_ROUTES.download.path,
          params: { source },
          query: { deeplink, ...(public_access_key ? { public_access_key } : {}) },
          auth: !public_access_key,
          variant: conn.variant,
        },
        { signal: ctx.signal() },
      );
      return blobOf(response);
    },
    async 'docFile.range'(ctx, { source, deeplink, public_access_key, start, end }, conn) {
      const response = await ctx.client.send(
        {
          method: UPLOAD_RAW_ROUTES.download.method,
          path: UPLOAD_RAW_ROUTES.download.path,
          params: { source },
          query: { deeplink, ...(public_access_key ? { public_access_key } : {}) },
          headers: { range: `bytes=${start}-${end}` },
          auth: !public_access_key,
          variant: conn.variant,
        },
        { signal: ctx.signal() },
      );
      const bytes = await bytesOf(response);
      if (response.status === 206) {
        const size = totalOf(response.headers?.get('content-range') ?? null);
        if (size === null) {
          throw new ApiError(502, 'bad_range', `${deeplink}: a partial answer without its size`);
        }
        return { size, bytes };
      }
      // The whole file (a server not reading ranges): the asked part of it.
      return { size: bytes.length, bytes: bytes.slice(start, end + 1) };
    },
    async 'docFile.shared'(ctx, { source, deeplink, public_access_key }, conn) {
      const response = await ctx.client.send(
        {
          method: 'get',
          path: '/doc/{source}',
          params: { source },
          query: { deeplink, public_access_key },
          auth: false,
          variant: conn.variant,
        },
        { signal: ctx.signal() },
      );
      const answer = DocResult.parse(JSON.parse(await response.text()));
      const found = answer.results.find((d) => d.deeplink === deeplink);
      if (!found) throw new ApiError(404, 'not_found', `no shared document ${deeplink}`);
      return found;
    },
    async 'docFile.share'(ctx, { source, deeplink, access_key }, conn) {
      const response = await ctx.client.send(
        {
          method: 'get',
          path: '/doc/{source}',
          params: { source },
          query: { deeplink, share: 'true', ...(access_key ? { access_key } : {}) },
          auth: true,
          variant: conn.variant,
        },
        { signal: ctx.signal() },
      );
      const key = ShareResult.parse(JSON.parse(await response.text())).results[0]
        ?.public_access_key;
      // 002 §8: a missing key is a failure (the tab shows the generic error).
      if (!key) throw new ApiError(502, 'no_public_access_key', 'Missing public access key');
      return { public_access_key: key };
    },
    async 'docFile.revokeShare'(ctx, { source, deeplink }, conn) {
      await ctx.client.call('docShareRevoke', {
        params: { source },
        query: { deeplink },
        variant: conn.variant,
        signal: ctx.signal(),
      });
    },
    async 'docFile.delete'(ctx, { source, deeplink }, conn) {
      await ctx.client.call('docDelete', {
        params: { source },
        query: { deeplink },
        variant: conn.variant,
        signal: ctx.signal(),
      });
      // The drive's list of files is read from the server: every tab showing it reads again.
      ctx.emit({ type: 'changed', store: 'uploads', keys: null });
      const owner = ctx.owner();
      if (owner) await ctx.reads.store([{ store: STORE, key: deeplink }], owner);
    },
    async 'docFile.summarise'(ctx, { deeplink }, conn) {
      const status = await ctx.client.call('saveSummary', {
        body: { deeplink },
        variant: conn.variant,
        signal: ctx.signal(),
      });
      await keep(ctx, status);
      watch(ctx, status);
      return status;
    },
    async 'docFile.summaryStatus'(ctx, { deeplink }, conn) {
      const mirror = await ctx.mirror;
      const kept = await mirror.get<SummaryStatus>(STORE, deeplink);
      // A finished summary does not change; one being written is the poll's to refresh.
      if (kept && (kept.status === 'SUCCESS' || ctx.state.polls.has(deeplink))) return kept;
      const status = await ctx.client.call('summaryStatus', {
        query: { deeplink },
        variant: conn.variant,
        signal: ctx.signal(),
      });
      await keep(ctx, status);
      watch(ctx, status);
      return status;
    },
  },
  changes: {},
});
