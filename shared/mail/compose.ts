import MailComposer from "nodemailer/lib/mail-composer/index.js";
import type { OutgoingEmail } from "./mailer.js";

/**
 * The longest `From` or `To` header value SES accepts, in characters once
 * encoded: it refuses longer ones (a reading of RFC 5321's 320-character
 * address limit), so a display name that would exceed it is dropped and the
 * bare address kept, as Zulip's `build_email` does: better the email with a
 * plain address than no email.
 */
export const SES_ADDRESS_HEADER_LIMIT = 320;

/**
 * Builds the raw MIME message of an email (RFC 5322, `multipart/alternative`
 * with the plain text and HTML bodies, UTF-8 headers and names encoded as
 * RFC 2047 words, line breaks in the subject or names unable to start a new
 * header), with nodemailer's composer: the bytes SES sends and the local
 * mailbox keeps. Automatic replies are discouraged (`Auto-Submitted`, RFC
 * 3834, and Outlook's `X-Auto-Response-Suppress`); `X-Zulip-Template` names
 * the template for logs and tests.
 * @param from the sender address; its display name is `email.from_name` (the organization's, `layoutEmail`)
 * @param date the `Date` header
 * @returns the message's bytes
 */
export async function composeRawEmail(email: OutgoingEmail, from: string, date: Date): Promise<Buffer> {
  let names = { from: email.from_name, to: email.to.name };
  let raw = await build(email, from, date, names);
  const long = tooLongAddressHeaders(raw);
  if (long.size > 0) {
    names = { from: long.has("from") ? undefined : names.from, to: long.has("to") ? undefined : names.to };
    raw = await build(email, from, date, names);
  }
  return raw;
}

function build(email: OutgoingEmail, from: string, date: Date, names: { from?: string; to?: string }): Promise<Buffer> {
  const composer = new MailComposer({
    from: names.from ? { name: names.from, address: from } : from,
    to: names.to ? { name: names.to, address: email.to.email } : email.to.email,
    replyTo: email.reply_to,
    subject: email.subject,
    text: email.text,
    html: email.html,
    date,
    headers: {
      "X-Zulip-Template": email.template,
      "Auto-Submitted": "auto-generated",
      "X-Auto-Response-Suppress": "All",
    },
  });
  return composer.compile().build();
}

/** Which of the `From` and `To` headers of a built message are longer than {@link SES_ADDRESS_HEADER_LIMIT} (unfolded). */
function tooLongAddressHeaders(raw: Buffer): Set<"from" | "to"> {
  const head = raw.toString("latin1").split("\r\n\r\n", 1)[0]!.replace(/\r\n[ \t]/g, " ");
  const out = new Set<"from" | "to">();
  for (const line of head.split("\r\n")) {
    const match = /^(From|To): (.*)$/i.exec(line);
    if (match && match[2]!.length > SES_ADDRESS_HEADER_LIMIT) out.add(match[1]!.toLowerCase() as "from" | "to");
  }
  return out;
}
