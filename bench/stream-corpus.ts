import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { universeId } from '../contract/assistant';
import { hashPassword } from '../server/auth/password';
import { openDatabase } from '../server/db/database';
import { migrateToLatest } from '../server/db/migrate';
import { startServer } from '../server/start';
import { fillCorpus, prepareCorpus } from './search-corpus';
import { measureTtft, signInToken, TTFT_USER_LIMITS, type TtftStats } from './stream-ttft';

/**
 * bench/stream's large corpus: bench/search's generated documents (STREAM_BENCH_DOCS, 1M by
 * default) stored through the product's ingestion path into a fresh SQLite database, then the
 * real server on it with the extractive answerer (no LLM configured), and the time to first
 * token of the ~20 questions over HTTP: over the bench user's data (100 followed sources, about
 * half of the corpus) and over the web (the whole public corpus).
 */

const PASSWORD = 'stream-bench-password';

export async function ttftOverCorpus(opts: {
  docs: number;
  product: string;
}): Promise<{ mine: TtftStats; web: TtftStats }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'stream-bench-corpus-'));
  try {
    const now = Date.now();
    const { db } = await openDatabase({ dataDir });
    let email: string;
    try {
      await migrateToLatest(db);
      const corpus = await prepareCorpus(db, now);
      let shown = 0;
      const build = await fillCorpus(db, corpus, {
        docs: opts.docs,
        now,
        onProgress: (p) => {
          if (p.done / p.total >= shown + 0.25 || p.done === p.total) {
            shown = Math.floor((p.done / p.total) * 4) / 4;
            console.log(`  ... ${p.done.toLocaleString('en')} stored, ${Math.round(p.seconds)} s`);
          }
        },
      });
      console.log(
        `  corpus: ${build.inserted.toLocaleString('en')} documents stored in ${build.wallSeconds.toFixed(0)} s (insertDocuments, as ingestion stores them)`,
      );
      // The corpus's reader was made with an unusable password: give them one to sign in with.
      const user = await db
        .updateTable('users')
        .set({ password_hash: await hashPassword(PASSWORD) })
        .where('id', '=', corpus.userId)
        .returning('email')
        .executeTakeFirstOrThrow();
      email = user.email;
    } finally {
      await db.destroy();
    }
    const server = await startServer({
      port: 0,
      host: '127.0.0.1',
      dataDir,
      seed: false,
      ingest: false,
      product: opts.product,
      log: () => {},
      userLimits: TTFT_USER_LIMITS,
    });
    try {
      const token = await signInToken(server.url, email, PASSWORD);
      const base = { base: server.url, product: opts.product, token };
      const mine = await measureTtft({ ...base, label: "the user's data (all)" });
      const web = await measureTtft({
        ...base,
        label: 'the web (the whole public corpus)',
        query: { board_id: universeId(opts.product) },
      });
      return { mine, web };
    } finally {
      await server.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
