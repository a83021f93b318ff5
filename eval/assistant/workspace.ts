import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Session } from '../../contract/auth';
import { createApp } from '../../server/app';
import type { AppDeps } from '../../server/context';
import { openDatabase } from '../../server/db/database';
import { migrateToLatest } from '../../server/db/migrate';
import { serverDomains } from '../../server/domains';
import { createIngestRunner } from '../../server/content/runner';
import { createMailer } from '../../server/mailer';
import { runMaintenance } from '../../server/maintenance';
import { seedDemoWorkspace } from '../../server/seed';

/**
 * The evaluation's workspace: a fresh SQLite database in a temp DATA_DIR, migrated and seeded
 * with the demo workspace as `npm start` does on its first run (server/start.ts), the real app
 * in-process, and the ten 10-K filings (tests/fixtures/sec-10k) served as one RSS feed per
 * company from 127.0.0.1, followed by the demo user through the API and ingested by the real
 * runner. Nothing reaches the network: the demo's filings presets (SEC, BSE) are pointed at the
 * local server (PRESET_BASE_URL), which has no answer for them.
 */

export const PRODUCT = 'needl';
export const DEMO = { email: 'demo@needl.ai', password: 'demo-password' };
const FIXTURES = new URL('../../tests/fixtures/sec-10k/', import.meta.url);

export type Company = { file: string; company: string; short: string; constructed?: boolean };
type Filing = Record<(typeof SECTIONS)[number][0], string>;

export const SECTIONS = [
  ['item1', 'Item 1. Business'],
  ['item1a', 'Item 1A. Risk Factors'],
  ['item7', "Item 7. Management's Discussion and Analysis"],
  ['item7a', 'Item 7A. Quantitative and Qualitative Disclosures About Market Risk'],
] as const;

export const readCompanies = (): Company[] =>
  JSON.parse(readFileSync(new URL('companies.json', FIXTURES), 'utf8')) as Company[];

const readFiling = (file: string): Filing & { source?: string } =>
  JSON.parse(readFileSync(new URL(file, FIXTURES), 'utf8')) as Filing & { source?: string };

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Characters XML 1.0 does not allow (the filings have none today; a guard, not a filter). */
// eslint-disable-next-line no-control-regex
const notXml = /[^\x09\x0a\x0d\x20-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu;

/** A section's text as HTML: the leading '>' gone, each non-blank line its own paragraph. */
export const sectionHtml = (text: string): string =>
  text
    .replace(/^>/, '')
    .split(/\r\n?|\n/)
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => `<p>${escapeHtml(line.replace(notXml, ''))}</p>`)
    .join('\n');

/** A nominal publication date (the filings' fiscal 2023), one minute apart per section. */
const PUBLISHED = Date.parse('2023-09-01T12:00:00Z');

/** One RSS 2.0 feed: the company's filing, one item per section (empty ones too). */
export const feedXml = (c: Company): string => {
  const filing = readFiling(c.file);
  const stem = c.file.replace(/\.json$/, '');
  const page = filing.source ?? `https://example.com/sec-10k/${stem}`;
  const items = SECTIONS.map(([key, label], i) => {
    const html = sectionHtml(filing[key] ?? '');
    return `<item>
<title>${escapeHtml(`${c.company} Form 10-K (fiscal 2023): ${label}`)}</title>
<link>${escapeHtml(`${page}#${key}`)}</link>
<guid isPermaLink="false">${escapeHtml(`sec-10k:${stem}:${key}`)}</guid>
<pubDate>${new Date(PUBLISHED + i * 60_000).toUTCString()}</pubDate>
<description>${html ? `<![CDATA[${html}]]>` : ''}</description>
</item>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel>
<title>${escapeHtml(`${c.company} 10-K filing sections`)}</title>
<link>${escapeHtml(page)}</link>
<description>${escapeHtml(`Form 10-K of ${c.company}, one item per section`)}</description>
${items.join('\n')}
</channel></rss>`;
};

/** The feeds on 127.0.0.1 (port 0): /feeds/{file stem}.xml; everything else 404. */
const serveFeeds = async (companies: Company[]) => {
  const feeds = new Map(
    companies.map((c) => [`/feeds/${c.file.replace(/\.json$/, '')}.xml`, feedXml(c)]),
  );
  const server: Server = createServer((req, res) => {
    const body = feeds.get(req.url ?? '');
    if (body === undefined) res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    else res.writeHead(200, { 'content-type': 'application/rss+xml; charset=utf-8' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return {
    base,
    close,
    urlOf: (c: Company) => `${base}/feeds/${c.file.replace(/\.json$/, '')}.xml`,
  };
};

export type Workspace = Awaited<ReturnType<typeof openWorkspace>>;

const TEMP_PREFIX = 'eval-assistant-';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * The temp directories of earlier runs that were killed outright (tsx answers a signal the
 * busy process does not take at once with SIGKILL, and then no exit hook runs): those whose
 * process (its `pid` file) is gone. A running evaluation's directory is left alone.
 */
const removeStaleDirs = () => {
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(TEMP_PREFIX)) continue;
    const dir = join(tmpdir(), name);
    let pid: number;
    try {
      pid = Number(readFileSync(join(dir, 'pid'), 'utf8'));
    } catch {
      continue;
    }
    if (Number.isInteger(pid) && pid > 0 && !alive(pid)) {
      rmSync(dir, { recursive: true, force: true });
    }
  }
};

export async function openWorkspace(log: (line: string) => void) {
  // The follow route probes the feed's address with the outbound fetch: let it reach 127.0.0.1.
  process.env.FETCH_ALLOW_PRIVATE = '1';
  removeStaleDirs();
  const dataDir = mkdtempSync(join(tmpdir(), TEMP_PREFIX));
  writeFileSync(join(dataDir, 'pid'), String(process.pid));
  const { db, dialect } = await openDatabase({ dataDir });
  const now = Date.now;
  const removeDir = () => rmSync(dataDir, { recursive: true, force: true });
  // The temp directory goes however the process ends: a normal exit, or stopped (Ctrl-C, timeout).
  process.once('exit', removeDir);
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    process.once(signal, () => process.exit(code));
  }
  const cleanups: Array<() => Promise<void> | void> = [removeDir, () => db.destroy()];
  const close = async () => {
    for (const f of cleanups.reverse()) await f();
  };
  try {
    await migrateToLatest(db);
    for (const domain of serverDomains) await domain.prepare?.(db, { product: PRODUCT });
    await seedDemoWorkspace(db, serverDomains, { now: now(), product: PRODUCT });
    const mailer = createMailer({
      from: `${PRODUCT} <no-reply@${PRODUCT}.ai>`,
      log,
      mailLog: { sent: [] },
    });
    cleanups.push(() => mailer.close());
    const deps: AppDeps = {
      db,
      dialect,
      product: PRODUCT,
      distDir: join(dataDir, 'no-dist'),
      idTokenTtlSeconds: 3600,
      now,
      log,
      mailer,
      publicUrl: () => 'http://localhost:8080',
      metrics: { authPolls: 0, requests: 0, openConnections: 0, connectionsOpened: 0 },
      // One user asks every question, several at once: a measurement, not a user's pace.
      userLimits: { concurrentAsks: 1000, asksPerMinute: 100_000 },
    };
    await runMaintenance(deps);
    const app = createApp(deps);

    const call = async (method: string, path: string, token: string | null, body?: unknown) => {
      const headers: Record<string, string> = { 'idempotency-key': randomUUID() };
      if (token) headers.token = token;
      if (body !== undefined) headers['content-type'] = 'application/json';
      const res = await app.request(`/api${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON: keep the text
      }
      return { status: res.status, body: parsed };
    };

    const signIn = await call('POST', '/auth/signin', null, DEMO);
    if (signIn.status !== 200) throw new Error(`demo sign-in: ${JSON.stringify(signIn.body)}`);
    const session = signIn.body as Session;

    const companies = readCompanies();
    const feeds = await serveFeeds(companies);
    cleanups.push(feeds.close);

    // Follow each company's feed as the demo user (POST /connect/rss: probed, then a source).
    const companyOfSource = new Map<string, string>();
    for (const c of companies) {
      const res = await call('POST', '/connect/rss', session.id_token, { url: feeds.urlOf(c) });
      if (res.status !== 201 && res.status !== 200) {
        throw new Error(`following ${c.company}'s feed: ${res.status} ${JSON.stringify(res.body)}`);
      }
      companyOfSource.set((res.body as { source_id: string }).source_id, c.company);
    }

    // Ingest: the real runner, every due job until none is due.
    const runner = createIngestRunner({
      db,
      dialect,
      now,
      log,
      owner: 'eval-assistant',
      fetch: { allowPrivate: true },
      presetBaseUrl: `${feeds.base}/presets`,
    });
    await runner.runDue();
    await runner.stop();

    const rows = await db
      .selectFrom('documents')
      .select(['id', 'source_id', 'plain_text'])
      .where('source_id', 'in', [...companyOfSource.keys()])
      .execute();
    const companyOfDocument = new Map(rows.map((r) => [r.id, companyOfSource.get(r.source_id)!]));
    for (const [sourceId, company] of companyOfSource) {
      const stored = rows.filter((r) => r.source_id === sourceId).length;
      if (stored !== SECTIONS.length) {
        const job = await db
          .selectFrom('ingest_jobs')
          .select(['state', 'last_error'])
          .where('source_id', '=', sourceId)
          .executeTakeFirst();
        throw new Error(
          `${company}: ${stored} of ${SECTIONS.length} sections stored (job ${job?.state ?? 'none'}: ${job?.last_error ?? 'no error'})`,
        );
      }
    }
    const all = await db
      .selectFrom('documents')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();

    return {
      app,
      db,
      token: session.id_token,
      userId: session.user.id,
      companies,
      companyOfDocument,
      /** The filings' sections as stored (plain text), by company. */
      storedText: rows.map((r) => ({
        company: companyOfSource.get(r.source_id)!,
        text: r.plain_text,
      })),
      documents: { total: Number(all.n), filings: rows.length },
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
