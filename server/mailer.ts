import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import nodemailer from 'nodemailer';
import { iso } from './time';

export type MailMessage = { to: string; subject: string; text: string };

/** What the log transport has "sent", so tests (and curious developers) can read it. */
export type MailLog = { sent: MailMessage[] };

export type Mailer = { send(message: MailMessage): Promise<void>; close(): void };

/** The sender unless MAIL_FROM says otherwise: `needl <no-reply@needl.ai>` (README). */
export const defaultMailFrom = (product: string) => `${product} <no-reply@${product}.ai>`;

/** A mail the log transport saved: `<dir>/<sent_at with - for :>-<id>.json`. */
export type SavedMail = MailMessage & { from: string; sent_at: string };

/**
 * Mail goes through SMTP when `smtpUrl` is set. Otherwise the log transport records it in
 * `mailLog`, prints one line, and with a `dir` also saves it as JSON there, so that a developer
 * (or an end-to-end suite running the server in another process) can open the reset link.
 */
export const createMailer = (deps: {
  smtpUrl?: string;
  from: string;
  log: (line: string) => void;
  mailLog: MailLog;
  /** Where the log transport saves each message (DATA_DIR/mail); nowhere when unset. */
  dir?: string;
  now?: () => number;
}): Mailer => {
  if (deps.smtpUrl) {
    const transport = nodemailer.createTransport(deps.smtpUrl);
    return {
      async send(message) {
        await transport.sendMail({ from: deps.from, ...message });
        deps.log(`mail sent to ${message.to}: ${message.subject}`);
      },
      close: () => transport.close(),
    };
  }
  const now = deps.now ?? Date.now;
  return {
    async send(message) {
      // Recorded before any await, so a test reads it as soon as the request has answered.
      deps.mailLog.sent.push(message);
      if (!deps.dir) {
        const link = message.text.match(/https?:\/\/\S+/)?.[0];
        deps.log(`mail to ${message.to}: ${message.subject}${link ? ` ${link}` : ''}`);
        return;
      }
      const sentAt = iso(now());
      const dir = resolve(deps.dir);
      const file = join(
        dir,
        `${sentAt.replaceAll(':', '-')}-${randomBytes(4).toString('hex')}.json`,
      );
      const saved: SavedMail = {
        to: message.to,
        from: deps.from,
        subject: message.subject,
        text: message.text,
        sent_at: sentAt,
      };
      // Reset links are credentials: readable by the server's user only. Written under another
      // name and renamed, so a reader polling for *.json never opens half a file.
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const partial = `${file}.partial`;
      await writeFile(partial, `${JSON.stringify(saved, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
      await rename(partial, file);
      deps.log(`mail to ${message.to}: ${message.subject} (saved to ${file})`);
    },
    close: () => {},
  };
};
