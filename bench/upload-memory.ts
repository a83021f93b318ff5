import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * bench/upload-memory: what a 1 GB upload costs the server in memory (issue 20: resident memory
 * stays within 100 MB of idle: streamed, not buffered).
 *
 * A fresh server process (the compiled server, `node dist-server/main.mjs`, as `npm start`
 * runs it; SQLite and the local disk in a temporary DATA_DIR, UPLOAD_FILE_SIZE_LIMIT_MB and PLAN_FREE_STORAGE_MB raised) is started; a
 * user signs up, asks /upload/init for one file and PUTs UPLOAD_BENCH_BYTES (1 GiB by default)
 * of text to its upload_link, generated as sent (the client never holds it either). The
 * server's RSS (from /proc) is read when idle and at its peak (VmHWM, reset after idle). The
 * baseline, same run, own fresh server: a 1 MiB upload. Goal: peak - idle <= 100 MB.
 */

const BYTES = Number(process.env.UPLOAD_BENCH_BYTES ?? 1024 * 1048576);
const GOAL_MB = 100;
const ROOT = join(import.meta.dirname, '..');

const memory = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
};

const put = (url: string, headers: Record<string, string>, bytes: number) =>
  new Promise<number>((resolve, reject) => {
    const req = request(
      url,
      { method: 'PUT', headers: { ...headers, 'content-length': String(bytes) } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    const chunk = Buffer.alloc(1048576, 'lorem ipsum dolor sit amet, ');
    let sent = 0;
    const write = () => {
      while (sent < bytes) {
        const n = Math.min(chunk.length, bytes - sent);
        sent += n;
        if (!req.write(n === chunk.length ? chunk : chunk.subarray(0, n))) {
          req.once('drain', write);
          return;
        }
      }
      req.end();
    };
    write();
  });

const run = async (bytes: number) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'upload-bench-'));
  let child: ChildProcess | null = null;
  try {
    child = spawn(process.execPath, ['dist-server/main.mjs'], {
      cwd: ROOT,
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        PORT: '0',
        DIST_DIR: join(dataDir, 'no-dist'),
        UPLOAD_FILE_SIZE_LIMIT_MB: '4096',
        PLAN_FREE_STORAGE_MB: '8192',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child!.stdout!.on('data', (c: Buffer) => {
        out += c.toString();
        const port = /workspace on http:\/\/localhost:(\d+)/.exec(out)?.[1];
        if (port) resolve(`http://127.0.0.1:${port}`);
      });
      child!.once('exit', (code) => reject(new Error(`server exited (${code})`)));
    });
    const call = async (path: string, body: unknown, token?: string) => {
      const res = await fetch(`${url}/api${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'idempotency-key': randomUUID(),
          ...(token ? { token } : {}),
        },
        body: JSON.stringify(body),
      });
      return (await res.json()) as Record<string, unknown>;
    };
    const session = await call('/auth/signup', {
      name: 'Bench',
      email: 'bench@example.com',
      password: 'correct-horse',
    });
    const token = session.id_token as string;
    const init = await call(
      '/upload/init',
      { source: 'needldrive', files: [{ id: 'big', name: 'big.txt', mime_type: 'text/plain' }] },
      token,
    );
    const cfg = (
      init.upload_configs as Array<{ upload_link: string; headers: Record<string, string> }>
    )[0];
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const pid = child.pid!;
    const idle = memory(pid).rss;
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    const started = Date.now();
    const status = await put(`${url}${cfg.upload_link}`, cfg.headers, bytes);
    const seconds = (Date.now() - started) / 1000;
    if (status !== 200) throw new Error(`upload answered ${status}`);
    return { idle, peak: memory(pid).peak, seconds };
  } finally {
    child?.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
};

const baseline = await run(1048576);
const big = await run(BYTES);
const mb = (n: number) => `${n.toFixed(1)} MB`;
console.log(
  `baseline (1 MiB upload): idle ${mb(baseline.idle)}, peak ${mb(baseline.peak)}, +${mb(baseline.peak - baseline.idle)}`,
);
console.log(
  `${(BYTES / 1048576).toFixed(0)} MiB upload: idle ${mb(big.idle)}, peak ${mb(big.peak)}, +${mb(big.peak - big.idle)} in ${big.seconds.toFixed(1)} s (${(BYTES / 1048576 / big.seconds).toFixed(0)} MiB/s)`,
);
const over = big.peak - big.idle;
console.log(
  `goal: peak - idle <= ${GOAL_MB} MB: ${over <= GOAL_MB ? 'met' : 'NOT met'} (ratio to baseline ${(over / Math.max(1, baseline.peak - baseline.idle)).toFixed(2)})`,
);
