import nodemailer from 'nodemailer';

export type MailMessage = { to: string; subject: string; text: string };

/** What the log transport has "sent", so tests (and curious developers) can read it. */
export type MailLog = { sent: MailMessage[] };

export type Mailer = { send(message: MailMessage): Promise<void>; close(): void };

/**
 * Mail goes to a log transport by default (recorded in `log`, one line to the server log) and
 * through SMTP when `smtpUrl` is set.
 */
export const createMailer = (deps: {
  smtpUrl?: string;
  from: string;
  log: (line: string) => void;
  mailLog: MailLog;
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
  return {
    async send(message) {
      deps.mailLog.sent.push(message);
      const link = message.text.match(/https?:\/\/\S+/)?.[0];
      deps.log(
        `mail (log transport) to ${message.to}: ${message.subject}${link ? ` ${link}` : ''}`,
      );
    },
    close: () => {},
  };
};
