// Email out of Parley (the team's invitations, password reset links) over SMTP, with nodemailer.
// Configured by SMTP_URL (smtp://user:pass@host:587, smtps:// for TLS from the start); without it
// Parley sends no email.
// A send never takes longer than MAIL_TIMEOUT_MS, and its error names no credential.
import nodemailer from "nodemailer";

import { MAIL_TIMEOUT_MS } from "./limits.ts";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** The same as HTML (user text in it escaped by the sender's template); without it, text only. */
  html?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** The sender Parley writes as: `Parley <parley@host-of-APP_URL>`. */
export function senderFor(appUrl: string): string {
  return `Parley <parley@${new URL(appUrl).hostname}>`;
}

export function smtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: MAIL_TIMEOUT_MS,
    greetingTimeout: MAIL_TIMEOUT_MS,
    socketTimeout: MAIL_TIMEOUT_MS,
  });
  return {
    async send(message) {
      await transport.sendMail({ ...message, from });
    },
    close: () => transport.close(),
  };
}
