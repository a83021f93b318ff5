import {
  uploadClient,
  type StartFile,
  type UploadRow,
  type UploadStartInput,
  type UploadStartResult,
} from '../../../contract/upload-client';
import { checkFiles } from '../../../contract/upload-files';
import {
  UPLOAD_ERROR_TEXT,
  UPLOAD_POLL_START_MS,
  type CompleteFile,
  type ReportType,
  type UploadConfig,
  type UploadedFile,
  type UploadLinkConfig,
} from '../../../contract/uploads';
import { progressBody } from '../../api-upload';
import { defineWorkerDomain } from '../../registry';
import { applyServer, startPolling } from './upload-poll';
import {
  allRows,
  CONFIG_KEY,
  fail,
  inBrowserWorker,
  isFinal,
  memory,
  PROGRESS_STEP,
  put,
  rowOf,
  STORE,
  type Ctx,
  type State,
} from './upload-rows';

/**
 * Uploads from the worker (issue 20; 001 §3-5, §7): the config (cached forever), the file
 * checks of 001 §5, init, one transfer per file with its progress, complete (POST: a new
 * uploads feed; PUT with `action: add`: an existing one), then ONE status poll for every file
 * of every tab: 5 s, doubling (10, 20, 40 s), the last wait cut so the waits add up to 120 s,
 * stopping as soon as every file is COMPLETED or FAILED. Every file is a record of `uploads`;
 * tabs hear 'changed' with its key and read `uploads.list`.
 *
 * The transfer body: Chromium sends a streaming (ReadableStream) body only over HTTP/2 or 3
 * (worker/api-upload.ts), and the server speaks HTTP/1.1; so in a browser worker the file goes
 * as its Blob (progress 0 at the start, 100 once the server answered), and outside a browser
 * (Node: the CLI, the tests) through `progressBody`, progress moving per 64 KiB chunk.
 */

async function config(ctx: Ctx, reportType: ReportType | undefined): Promise<UploadConfig> {
  const key = CONFIG_KEY(reportType);
  let pending = ctx.state.configs.get(key);
  if (!pending) {
    pending = (async () => {
      const mirror = await ctx.mirror;
      const kept = await mirror.get<{ config: UploadConfig }>(STORE, key);
      if (kept) return kept.config;
      const answer = await ctx.client.call('uploadConfig', {
        query: reportType ? { report_type: reportType } : {},
        signal: ctx.signal(),
      });
      const owner = ctx.owner();
      if (owner) await ctx.reads.store([{ store: STORE, key, value: answer }], owner);
      return answer.config;
    })();
    ctx.state.configs.set(key, pending);
    // A failure is not cached: the next upload asks again.
    pending.catch(() => ctx.state.configs.delete(key));
  }
  return pending;
}

async function start(ctx: Ctx, input: UploadStartInput): Promise<UploadStartResult> {
  const source = input.source ?? `${ctx.product}drive`;
  const now = ctx.clock.now();
  const row = (file: StartFile, type: string): UploadRow => ({
    id: file.id,
    name: file.name,
    size: file.size,
    mime_type: type,
    status: 'UPLOADING',
    progress: 0,
    error: null,
    source,
    key: null,
    feed_id: input.feed_id ?? null,
    deeplink: null,
    started_at: now,
  });
  let cfg: UploadConfig;
  try {
    cfg = await config(ctx, input.report_type);
  } catch {
    await put(
      ctx,
      input.files.map((f) => ({
        ...row(f, f.type),
        status: 'UPLOADING_ERROR',
        error: UPLOAD_ERROR_TEXT.configs,
      })),
    );
    return { accepted: [], errors: [UPLOAD_ERROR_TEXT.configs], duplicates: [] };
  }
  const inFlight = (await allRows(ctx)).filter((r) => !isFinal(r));
  const existing = [...inFlight, ...(input.existing ?? [])];
  const checked = checkFiles(input.files, existing, cfg, input.report_type ? 'report' : 'attach');
  const accepted = checked.accepted;
  if (accepted.length > 0) {
    await put(
      ctx,
      accepted.map((f) => row(f, f.type)),
    );
    ctx.track(upload(ctx, input, source, accepted));
  }
  return {
    accepted: accepted.map((f) => f.id),
    errors: checked.errors,
    duplicates: checked.duplicates.map((f) => f.id),
  };
}

/** The transfer's path on the API base (the local disk's link starts with the base's path). */
const linkPath = (baseUrlPath: string, link: string) =>
  baseUrlPath && link.startsWith(`${baseUrlPath}/`) ? link.slice(baseUrlPath.length) : link;

async function transfer(ctx: Ctx, file: StartFile, link: UploadLinkConfig) {
  let shown = 0;
  const report = async (percent: number) => {
    const current = rowOf(ctx, file.id);
    if (!current || current.status !== 'UPLOADING') return;
    memory(ctx).set(file.id, { ...current, progress: percent });
    if (percent - shown >= PROGRESS_STEP || percent === 100) {
      shown = percent;
      await put(ctx, [{ ...current, progress: percent }]);
    }
  };
  const writes: Promise<void>[] = [];
  const body = inBrowserWorker()
    ? file.data
    : progressBody(file.data, ({ sent, total }) => {
        writes.push(report(total === 0 ? 100 : Math.floor((sent / total) * 100)));
      });
  await ctx.client
    .send(
      {
        method: link.method.toLowerCase() as 'put',
        path: linkPath('/api', link.upload_link),
        auth: false,
        headers: link.headers,
        body,
        background: true,
        // The transfer is a PUT of one key's bytes (a repeat overwrites them): no idempotency
        // record, whose middleware would read (and hold) the whole body first.
        idempotencyKey: false,
      },
      { signal: ctx.signal() },
    )
    .then((r) => r.text());
  await Promise.all(writes);
  const current = rowOf(ctx, file.id);
  if (current) await put(ctx, [{ ...current, status: 'UPLOADED', progress: 100 }]);
}

async function upload(
  ctx: Ctx,
  input: UploadStartInput,
  source: string,
  files: Array<StartFile & { type: string }>,
) {
  const ids = files.map((f) => f.id);
  let links: UploadLinkConfig[];
  try {
    const answer = await ctx.client.call('uploadInit', {
      body: {
        source,
        files: files.map((f) => ({ id: f.id, name: f.name, mime_type: f.type, size: f.size })),
        ...(input.report_type ? { report_type: input.report_type } : {}),
      },
      signal: ctx.signal(),
    });
    links = answer.upload_configs;
  } catch {
    await fail(ctx, ids, UPLOAD_ERROR_TEXT.uploading);
    return;
  }
  const byId = new Map(links.map((l) => [l.id, l]));
  await put(
    ctx,
    files.flatMap((f) => {
      const r = rowOf(ctx, f.id);
      const l = byId.get(f.id);
      return r && l ? [{ ...r, key: l.metadata_fields.key }] : [];
    }),
  );
  const sent = await Promise.allSettled(
    files.map((f) => {
      const link = byId.get(f.id);
      if (!link) return Promise.reject(new Error(`no upload link for ${f.id}`));
      return transfer(ctx, f, link);
    }),
  );
  const failed = files.filter((_f, i) => sent[i].status === 'rejected').map((f) => f.id);
  if (failed.length > 0) await fail(ctx, failed, UPLOAD_ERROR_TEXT.uploading);
  const done = files.filter((f) => !failed.includes(f.id));
  if (done.length === 0) return;
  const completeFiles: CompleteFile[] = done.map((f) => {
    const link = byId.get(f.id) as UploadLinkConfig;
    return {
      bucket: link.metadata_fields.bucket,
      key: link.metadata_fields.key,
      metadata: { name: f.name, mime_type: f.type, id: f.id },
    };
  });
  const extra = {
    ...(input.report_type ? { report_type: input.report_type } : {}),
    ...(input.report_name ? { report_name: input.report_name } : {}),
  };
  let result: { feed_id: string; files: UploadedFile[] };
  try {
    result = input.feed_id
      ? await ctx.client.call('uploadCompleteUpdate', {
          body: { files: completeFiles, action: 'add', source, feed_id: input.feed_id, ...extra },
          signal: ctx.signal(),
        })
      : await ctx.client.call('uploadComplete', {
          body: { files: completeFiles, source, ...extra },
          signal: ctx.signal(),
        });
  } catch {
    await fail(
      ctx,
      done.map((f) => f.id),
      UPLOAD_ERROR_TEXT.uploading,
    );
    return;
  }
  await applyServer(ctx, result.files, 'PROCESSING', result.feed_id);
  startPolling(ctx);
}

export const uploadsDomain = defineWorkerDomain(uploadClient, {
  state: (): State => ({
    configs: new Map(),
    poll: { timer: null, wait: UPLOAD_POLL_START_MS, waited: 0 },
    rows: new Map(),
    user: null,
    resumed: false,
  }),
  stores: { uploads: { keyPath: null, version: 1 } },
  reads: {
    'uploads.config': (ctx, { report_type }) => config(ctx, report_type),
    'uploads.start': (ctx, input) => start(ctx, input),
    'uploads.list': async (ctx) => {
      const rows = await allRows(ctx);
      // Files left processing by an earlier worker (a reload, every tab closed): poll again.
      if (!ctx.state.resumed && ctx.owner()) {
        ctx.state.resumed = true;
        if (ctx.state.poll.timer === null && rows.some((r) => r.key && r.status === 'PROCESSING')) {
          startPolling(ctx);
        }
      }
      return rows;
    },
    'uploads.files': async (ctx, { limit }, conn) =>
      (
        await ctx.client.call('uploadFiles', {
          query: { limit: limit ?? 50 },
          variant: conn.variant,
          signal: ctx.signal(),
        })
      ).files,
    'uploads.dismiss': async (ctx, { ids }) => {
      const owner = ctx.owner();
      if (!owner) return;
      const rows = await allRows(ctx);
      const gone = rows.filter((r) => (ids ? ids.includes(r.id) : isFinal(r)));
      for (const r of gone) memory(ctx).delete(r.id);
      await ctx.reads.store(
        gone.map((r) => ({ store: STORE, key: r.id })),
        owner,
      );
    },
  },
  changes: {},
});
