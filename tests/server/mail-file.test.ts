import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SavedMail } from '../../server/mailer';
import { startServer, type RunningServer } from '../../server/start';
import { resetTokenFrom } from './harness';

describe('the log mail transport with a data directory', () => {
  let server: RunningServer;
  let dataDir: string;
  const logs: string[] = [];
  const now = Date.parse('2025-03-03T10:00:00.000Z');

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'server-mail-'));
    server = await startServer({ port: 0, dataDir, now: () => now, log: (l) => logs.push(l) });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${server.url}/api${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  };

  it('saves each mail under DATA_DIR/mail, and its reset link works', async () => {
    const forgot = await post('/auth/forgot-password', { email: 'demo@needl.ai' });
    expect(forgot.status).toBe(200);

    // The mail leaves after the answer, so wait for its file (written as *.partial, then renamed).
    const mailDir = join(dataDir, 'mail');
    const name = await vi.waitFor(() => {
      const files = readdirSync(mailDir).filter((f) => f.endsWith('.json'));
      expect(files).toHaveLength(1);
      return files[0];
    });
    expect(name).toMatch(/^2025-03-03T10-00-00\.000Z-[0-9a-f]{8}\.json$/);
    const file = join(mailDir, name);
    // The reset link is a credential: the file is the server user's alone.
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const mail = JSON.parse(readFileSync(file, 'utf8')) as SavedMail;
    expect(mail).toEqual({
      to: 'demo@needl.ai',
      from: 'needl <no-reply@needl.ai>',
      subject: 'Reset your needl password',
      text: expect.stringContaining(`http://localhost:${server.port}/auth/reset-password?token=`),
      sent_at: '2025-03-03T10:00:00.000Z',
    });
    await vi.waitFor(() =>
      expect(logs).toContain(`mail to demo@needl.ai: Reset your needl password (saved to ${file})`),
    );

    const reset = await post('/auth/reset-password', {
      token: resetTokenFrom(mail.text),
      password: 'a-brand-new-password',
    });
    expect(reset.status).toBe(200);
    const signIn = await post('/auth/signin', {
      email: 'demo@needl.ai',
      password: 'a-brand-new-password',
    });
    expect(signIn.status).toBe(200);
    expect(signIn.body.user.email).toBe('demo@needl.ai');
  });
});
