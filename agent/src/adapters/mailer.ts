import nodemailer from 'nodemailer';

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
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(message) {
      await transport.sendMail({ from, to: message.to, subject: message.subject, text: message.text });
    },
    async verify() {
      await transport.verify();
    },
  };
}
