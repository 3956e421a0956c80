import PostalMime, { addressParser, type Address, type Header } from "postal-mime";

/**
 * Reading a received email (the raw MIME message SES stores in the files
 * bucket) with postal-mime: the one place outside tests that parses mail.
 */

/** A file attached to an email. */
export interface IncomingAttachment {
  /** The part's file name as decoded (never empty: parts without one are not attachments here). */
  filename: string;
  /** Lower-case MIME type of the part. */
  contentType: string;
  bytes: Uint8Array;
}

/** A received email, as the email gateway reads it. */
export interface IncomingEmail {
  /** The `From` header's value as written (decoded display name and address), `""` when absent. */
  fromHeader: string;
  /** The sender's address from `From`, lower-cased; undefined when absent. */
  fromAddress?: string;
  /** The decoded `Subject`. */
  subject?: string;
  /** The `text/plain` body. */
  text?: string;
  /** The `text/html` body. */
  html?: string;
  /**
   * The recipient addresses, most accurate first (Zulip's
   * `find_emailgateway_recipient` order): `X-Gm-Original-To`,
   * `Delivered-To`, `Envelope-To`, the `for <…>` of the topmost `Received`
   * header (SES writes the envelope recipient there), `Resent-To`,
   * `Resent-Cc`, `To`, `Cc`; duplicates removed.
   */
  recipients: string[];
  /** The `Message-ID`, for logs. */
  messageId?: string;
  /** Every part that names a file (Zulip uploads each one that has a file name). */
  attachments: IncomingAttachment[];
  /** Whether a virus scan (SES's `X-SES-Virus-Verdict` header, written when the receipt rule scans) said `FAIL`. */
  virusFound: boolean;
}

/** Largest total header size accepted while parsing (postal-mime's default is 2 MiB). */
const MAX_HEADERS_BYTES = 512 * 1024;

/** The headers read for recipients, in order of accuracy; `received` stands for the topmost `Received` header's `for` clause. */
const RECIPIENT_HEADERS = ["x-gm-original-to", "delivered-to", "envelope-to", "received", "resent-to", "resent-cc", "to", "cc"] as const;

/** Mailboxes of parsed addresses, groups flattened. */
function mailboxes(addresses: readonly Address[]): string[] {
  return addresses.flatMap((a) => (a.group ? a.group.map((m) => m.address) : [a.address ?? ""])).filter((a) => a !== "");
}

/** The envelope recipient SES (and most MTAs) write in the `Received` header they add: `… for <addr>; date`. */
function receivedFor(header: Header | undefined): string[] {
  const match = header ? /\bfor\s+<?([^\s<>;]+@[^\s<>;]+)>?/i.exec(header.value) : null;
  return match ? [match[1]!] : [];
}

/** Renders a parsed `From` back as one line: `Name <addr>`, or the address alone. */
function formatFrom(from: Address | undefined, raw: string | undefined): string {
  if (from && !from.group && from.address) return from.name ? `${from.name} <${from.address}>` : from.address;
  return (raw ?? "").trim();
}

/**
 * Parses a raw email.
 * @param raw the message's bytes (RFC 5322 with MIME parts)
 * @throws Error when the message cannot be parsed (postal-mime's limits: nesting depth, header size)
 */
export async function parseIncomingEmail(raw: Uint8Array): Promise<IncomingEmail> {
  const email = await PostalMime.parse(raw, { attachmentEncoding: "arraybuffer", maxHeadersSize: MAX_HEADERS_BYTES });
  const all = (key: string) => email.headers.filter((h) => h.key === key);
  const seen = new Set<string>();
  const recipients: string[] = [];
  for (const key of RECIPIENT_HEADERS) {
    const found =
      key === "received"
        ? receivedFor(all("received")[0])
        : all(key).flatMap((h) => mailboxes(addressParser(h.value, { flatten: true })));
    for (const address of found) {
      const lower = address.toLowerCase();
      if (!seen.has(lower)) recipients.push(address);
      seen.add(lower);
    }
  }
  const attachments: IncomingAttachment[] = [];
  for (const part of email.attachments) {
    if (!part.filename) continue;
    const content = part.content;
    const bytes = typeof content === "string" ? new TextEncoder().encode(content) : new Uint8Array(content as ArrayBuffer);
    attachments.push({ filename: part.filename, contentType: part.mimeType, bytes });
  }
  const from = email.from;
  return {
    fromHeader: formatFrom(from, all("from")[0]?.value),
    fromAddress: from && !from.group && from.address ? from.address.toLowerCase() : undefined,
    subject: email.subject,
    text: email.text,
    html: email.html,
    recipients,
    messageId: email.messageId,
    attachments,
    virusFound: all("x-ses-virus-verdict").some((h) => h.value.trim().toUpperCase() === "FAIL"),
  };
}
