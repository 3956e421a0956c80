import { htmlToMarkdown } from "./html-markdown.js";
import { CONTENT_TRUNCATION_MARK, MAX_MESSAGE_BYTES } from "./message-fields.js";
import type { GatewayAddressOptions } from "./stream-email.js";

/**
 * The rules by which Zulip's email gateway turns an email into a stream
 * message (`zerver/lib/email_mirror.py`: `process_stream_message`,
 * `construct_zulip_body`, `extract_body`, `filter_footer`,
 * `strip_from_subject`), written for this server without storage: the
 * topic from the subject, the body from the text part (or the HTML part,
 * converted, with `prefer-html` or when there is no text), quoted replies
 * and a signature footer left out unless the address asks to keep them,
 * the sender shown with `show-sender`, attachment links after the body.
 * @see https://zulip.com/help/message-a-channel-by-email
 */

/** The topic of an email whose subject is empty once its `Re:`/`Fwd:` prefixes are gone (Zulip at feature level 283). */
export const EMAIL_NO_TOPIC = "(no topic)";

/** An email's body found empty after cleaning: Zulip's stand-in text. */
export const EMAIL_NO_BODY = "(No email body)";

/** One reply or forward prefix at the subject's start: `Re:`, `RE -`, `[Fwd:`, `Fw;`, `AW:` (German replies), `(fwd)`. */
const SUBJECT_PREFIX = /^\s*[[(]?\s*(?:re|aw|fwd?)\s*(?:[-:;)\]][\s:;\])-]*|$)/i;

/** The `Fwd:`/`Fw:` forms of {@link SUBJECT_PREFIX}, which mark a forwarded email. */
const FORWARD_PREFIX = /^\s*[[(]?\s*fwd?\s*(?:[-:;)\]]|$)/i;

/** Unprintable characters (Zulip's `is_character_printable`): control, surrogate and unassigned code points. */
const UNPRINTABLE = /[\p{Cc}\p{Cs}\p{Cn}]/gu;

/**
 * The message's topic from the email's subject: every leading reply or
 * forward prefix removed, unprintable characters dropped, trimmed;
 * {@link EMAIL_NO_TOPIC} when nothing is left. Length is capped by the send
 * path (60 characters, `...`).
 */
export function emailTopic(subject: string | undefined): string {
  let topic = (subject ?? "").replace(/\s+/g, " ");
  for (let i = 0; i < 10; i++) {
    const match = SUBJECT_PREFIX.exec(topic);
    if (!match || match[0] === "") break;
    topic = topic.slice(match[0].length);
  }
  topic = topic.replace(/\]+\s*$/, "").replace(UNPRINTABLE, "").trim();
  return topic === "" ? EMAIL_NO_TOPIC : topic;
}

/** Whether the subject says the email was forwarded (`Fwd:`, `Fw:`): Zulip then keeps its quotes by default. */
export function isForwardedSubject(subject: string | undefined): boolean {
  return FORWARD_PREFIX.test(subject ?? "");
}

/**
 * Zulip's `filter_footer`: when exactly one line of the text is `--`
 * (spaces around allowed), that line and everything after it (a
 * signature) go; with none or several the text stays whole, since the
 * split would be a guess.
 */
export function filterFooter(text: string): string {
  const lines = text.split("\n");
  const separators = lines.filter((line) => line.trim() === "--");
  if (separators.length !== 1) return text;
  return lines.slice(0, lines.findIndex((line) => line.trim() === "--")).join("\n").trim();
}

/** A reply header on one line: `On Mon, 1 Jan 2024 at 10:00, Ann <ann@x.org> wrote:` (and the forms of common clients). */
const REPLY_HEADER = /^\s*(on\s.+\swrote|le\s.+\sa écrit|am\s.+\sschrieb\s.+|el\s.+\sescribió)\s*:\s*$/i;
/** The first line of a reply header a client wrapped over two lines (`On …` then `… wrote:`). */
const REPLY_HEADER_START = /^\s*on\s.+/i;
const REPLY_HEADER_END = /\swrote\s*:\s*$/i;
/** Outlook's and others' separators before a quoted original. */
const ORIGINAL_MESSAGE = /^\s*(-{2,}\s*original message\s*-{2,}|_{20,})\s*$/i;

/**
 * The text of a plain-text reply without the message it quotes (what
 * Zulip's gateway does with talon's `extract_from_plain`): everything from
 * a reply header (`On … wrote:`, also wrapped over two lines), an
 * "Original Message" or underscore separator, or a trailing block of
 * `>`-quoted lines on. Quotes interleaved with answers are kept: only a
 * quote that nothing but blank lines follows is cut.
 */
export function stripQuotedReply(text: string): string {
  const lines = text.split("\n");
  let cut = lines.length;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (REPLY_HEADER.test(line) || ORIGINAL_MESSAGE.test(line)) {
      cut = i;
      break;
    }
    if (REPLY_HEADER_START.test(line) && !REPLY_HEADER_END.test(line) && i + 1 < lines.length && REPLY_HEADER_END.test(lines[i + 1]!)) {
      cut = i;
      break;
    }
  }
  // A trailing quote block (`>` lines and blank lines to the end) before the cut goes too.
  let end = cut;
  while (end > 0 && (lines[end - 1]!.trim() === "" || lines[end - 1]!.trimStart().startsWith(">"))) end--;
  const hasQuote = lines.slice(end, cut).some((line) => line.trimStart().startsWith(">"));
  const kept = lines.slice(0, hasQuote || cut < lines.length ? end : cut).join("\n");
  // A reply that is all quote keeps its text: an empty message tells nobody anything.
  return kept.trim() === "" ? text : kept;
}

/** What the gateway needs of a parsed email to build a message (see `shared/mail/parse.ts`). */
export interface GatewayEmail {
  /** The `From` header as written (display name and address), for `show-sender`. */
  fromHeader: string;
  subject?: string;
  text?: string;
  html?: string;
}

/** An email the gateway refuses to post (Zulip's `ZulipEmailForwardUserError`): logged, never retried. */
export class EmailRefusedError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = "EmailRefusedError";
  }
}

/**
 * The message's body (Zulip's `extract_body`): the text part, or with
 * `prefer-html` the HTML part converted to Markdown, each falling back on
 * the other; quoted replies left out unless `include-quotes` (default:
 * kept only for a forwarded email).
 * @throws EmailRefusedError when the email has no text or HTML part, or both are empty
 */
export function extractEmailBody(email: GatewayEmail, options: GatewayAddressOptions): string {
  const includeQuotes = options.includeQuotes ?? isForwardedSubject(email.subject);
  const clean = (text: string | undefined) =>
    text === undefined ? undefined : includeQuotes ? text : stripQuotedReply(text.replace(/\r\n?/g, "\n"));
  const plain = clean(email.text);
  const html = clean(email.html === undefined ? undefined : htmlToMarkdown(email.html));
  if (plain === undefined && html === undefined) throw new EmailRefusedError("Unable to find plaintext or HTML message body");
  if (!plain?.trim() && !html?.trim()) throw new EmailRefusedError("Email has no nonempty body sections; ignoring.");
  const [first, second] = options.preferText ? [plain, html] : [html, plain];
  return first?.trim() ? first : second!;
}

/** Cuts `text` to at most `budget` UTF-8 bytes at a character boundary, with the truncation mark inside the budget. */
function truncateBytes(text: string, budget: number): string {
  if (Buffer.byteLength(text, "utf8") <= budget) return text;
  const room = Math.max(0, budget - Buffer.byteLength(CONTENT_TRUNCATION_MARK, "utf8"));
  let used = 0;
  let kept = "";
  for (const ch of text) {
    const size = Buffer.byteLength(ch, "utf8");
    if (used + size > room) break;
    used += size;
    kept += ch;
  }
  return kept + CONTENT_TRUNCATION_MARK;
}

/**
 * The whole message content (Zulip's `construct_zulip_body`): with
 * `show-sender` a `From: <header>` line first; the body without NUL
 * characters and (unless `include-footer`) its signature footer, or
 * {@link EMAIL_NO_BODY}; then the attachments' links, one per line. The
 * body alone is truncated (with `[message truncated]`) so that the
 * attachment links always fit the 10,000-byte limit.
 * @param attachmentLinks Markdown links to the uploaded attachments, in the email's order
 * @throws EmailRefusedError as {@link extractEmailBody}
 */
export function buildGatewayContent(email: GatewayEmail, options: GatewayAddressOptions, attachmentLinks: readonly string[]): string {
  let body = extractEmailBody(email, options).replace(/\u0000/g, "");
  if (!options.includeFooter) body = filterFooter(body);
  if (!body.endsWith("\n")) body += "\n";
  if (body.trim() === "") body = EMAIL_NO_BODY;
  const preamble = options.showSender ? `From: ${email.fromHeader}\n` : "";
  const postamble = attachmentLinks.length > 0 ? `\n${attachmentLinks.join("\n")}` : "";
  const budget = MAX_MESSAGE_BYTES - Buffer.byteLength(preamble, "utf8") - Buffer.byteLength(postamble, "utf8");
  return preamble + truncateBytes(body, budget) + postamble;
}

/**
 * The Markdown link to an uploaded attachment: `[name](/user_uploads/…)`,
 * brackets dropped from the name (a link's text cannot hold them).
 */
export function attachmentLink(fileName: string, url: string): string {
  return `[${fileName.replace(/[[\]]/g, "")}](${url})`;
}
