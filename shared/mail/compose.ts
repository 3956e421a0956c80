import MailComposer from "nodemailer/lib/mail-composer/index.js";
import type { OutgoingEmail } from "./mailer.js";

/**
 * Builds the raw MIME message of an email (RFC 5322, `multipart/alternative`
 * with the plain text and HTML bodies, UTF-8 headers encoded), with
 * nodemailer's composer: the bytes SES sends and the local mailbox keeps.
 * @param from the sender address; the display name is `email.from_name`
 * @returns the message's bytes
 */
export async function composeRawEmail(email: OutgoingEmail, from: string, date: Date): Promise<Buffer> {
  const composer = new MailComposer({
    from: email.from_name ? { name: email.from_name, address: from } : from,
    to: email.to.name ? { name: email.to.name, address: email.to.email } : email.to.email,
    replyTo: email.reply_to,
    subject: email.subject,
    text: email.text,
    html: email.html,
    date,
    headers: { "X-Zulip-Template": email.template },
  });
  return composer.compile().build();
}
