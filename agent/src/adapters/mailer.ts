import type { Transporter } from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Outgoing e-mail over SMTP. The agent sends little mail (password resets), so one transport suffices. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /** Connects and signs in without sending anything (the integrations screen's "test now"). */
  verify?(): Promise<void>;
}

/**
 * An SMTP mailer from a URL in nodemailer's format: `smtp://user:pass@host:587` (STARTTLS when the
 * server offers it) or `smtps://user:pass@host:465` (TLS from the start).
 */
export function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  // nodemailer (about 14 MB once loaded) with the first mail or check: mail is rare on a hub.
  let transport: Promise<Transporter> | null = null;
  const open = () =>
    (transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport(smtpUrl),
    ));
  return {
    async send(message) {
      await (await open()).sendMail({ from, to: message.to, subject: message.subject, text: message.text });
    },
    async verify() {
      await (await open()).verify();
    },
  };
}
