import { expect } from 'vitest';
import { createUploadRunner } from '../../server/uploads';
import type { Harness } from './harness';

/**
 * What the upload suites share: a file uploaded and processed the way the client and
 * the job do it (init, the transfer, complete, the processing job run once), as a user's own
 * document. Answers the uploads feed and the document's id (the file's deeplink).
 */
export async function uploadProcessed(
  h: Harness,
  token: string,
  name: string,
  bytes: Buffer,
  source = 'needldrive',
): Promise<{ feed: string; doc: string }> {
  const init = await h.call('POST', '/upload/init', {
    token,
    body: { source, files: [{ id: name, name, mime_type: '', size: bytes.length }] },
  });
  expect(init.status).toBe(200);
  const cfg = init.body.upload_configs[0];
  const put = await h.app.request(cfg.upload_link, {
    method: 'PUT',
    headers: cfg.headers,
    body: new Uint8Array(bytes),
  });
  expect(put.status).toBe(200);
  const done = await h.call('POST', '/upload/complete', {
    token,
    body: {
      files: [
        {
          bucket: cfg.metadata_fields.bucket,
          key: cfg.metadata_fields.key,
          metadata: { name, mime_type: '', id: name },
        },
      ],
      source,
    },
  });
  expect(done.status).toBe(200);
  await createUploadRunner({
    db: h.db,
    dialect: h.dialect,
    storage: h.files,
    product: 'needl',
    now: () => h.clock.now,
    log: () => undefined,
  }).runDue();
  const status = await h.call('GET', `/upload/status?feed_id=${done.body.feed_id}`, { token });
  expect(status.body.files[0].status).toBe('COMPLETED');
  return { feed: done.body.feed_id as string, doc: status.body.files[0].deeplink as string };
}
