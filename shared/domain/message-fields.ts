import { firstUnprintablePosition } from "./printable.js";
import { JsonableError } from "../errors.js";

/**
 * Pure validation of what `POST /messages` is given: content, topic and the
 * `to` addressee, with Zulip's wording (zerver/lib/message.py
 * `normalize_body` / `truncate_topic`, zerver/lib/recipient_parsing.py).
 */

/** Most bytes of message content (`max_message_length` of https://zulip.com/api/register-queue). */
export const MAX_MESSAGE_BYTES = 10_000;

/** Most characters of a topic (`max_topic_length` of https://zulip.com/api/register-queue). */
export const MAX_TOPIC_LENGTH = 60;

/** What Zulip appends to content it truncates. */
export const CONTENT_TRUNCATION_MARK = "\n[message truncated]";

/** What Zulip's `truncate_topic` appends to a topic it truncates (three dots, not an ellipsis character). */
export const TOPIC_TRUNCATION_MARK = "...";

/**
 * Zulip's `normalize_body`: trailing whitespace and leading blank lines go;
 * empty content and NUL bytes are refused; content over
 * {@link MAX_MESSAGE_BYTES} is not refused but truncated, Zulip's
 * `truncate_content` way: cut so that the kept text plus
 * `"\n[message truncated]"` fits the limit. The limit is counted in UTF-8
 * bytes here (Zulip counts characters), so the cut is at a character
 * boundary at most 10,000 bytes in.
 * @throws JsonableError `Message must not be empty` / `Message must not contain null bytes`
 */
export function normalizeContent(raw: string): string {
  const body = raw.trimEnd().replace(/^\n+/, "");
  if (body.length === 0) throw new JsonableError("Message must not be empty");
  if (body.includes("\u0000")) throw new JsonableError("Message must not contain null bytes");
  if (Buffer.byteLength(body, "utf8") <= MAX_MESSAGE_BYTES) return body;
  const budget = MAX_MESSAGE_BYTES - Buffer.byteLength(CONTENT_TRUNCATION_MARK, "utf8");
  let used = 0;
  let kept = "";
  for (const ch of body) {
    const size = Buffer.byteLength(ch, "utf8");
    if (used + size > budget) break;
    used += size;
    kept += ch;
  }
  return kept + CONTENT_TRUNCATION_MARK;
}

/**
 * Bounds the content of `POST /messages/render` as Zulip's
 * `render_message_backend` declares it (`max_length` of
 * `MAX_MESSAGE_LENGTH`): at most {@link MAX_MESSAGE_BYTES} characters
 * (Unicode code points, as Python counts a string), refused rather than
 * truncated; empty content is not an error there (it renders to `""`).
 * @throws JsonableError `content is too long (limit: 10000 characters)`
 */
export function checkRenderContentLength(content: string): void {
  // UTF-16 units are never fewer than code points: count the latter only when the former exceed the limit.
  if (content.length <= MAX_MESSAGE_BYTES) return;
  let chars = 0;
  for (const _ of content) {
    if (++chars > MAX_MESSAGE_BYTES) throw new JsonableError(`content is too long (limit: ${MAX_MESSAGE_BYTES} characters)`);
  }
}

/**
 * A stream message's topic: surrounding whitespace stripped; empty refused
 * (feature level 283, before empty topics existed), and so are unprintable
 * characters (Zulip's `check_stream_topic`); over
 * {@link MAX_TOPIC_LENGTH} characters truncated to 57 plus `...` (Zulip's
 * `truncate_topic`).
 * @param topic undefined when neither `topic` nor `subject` was sent
 * @throws JsonableError `Missing topic` / `Topic can't be empty!` /
 *   `Invalid character in topic, at position <n>!` (1-based, in code points)
 */
export function normalizeTopic(topic: string | undefined): string {
  if (topic === undefined) throw new JsonableError("Missing topic");
  const stripped = topic.trim();
  if (stripped === "") throw new JsonableError("Topic can't be empty!");
  const position = firstUnprintablePosition(stripped);
  if (position !== undefined) throw new JsonableError(`Invalid character in topic, at position ${position}!`);
  const chars = Array.from(stripped);
  if (chars.length <= MAX_TOPIC_LENGTH) return stripped;
  return chars.slice(0, MAX_TOPIC_LENGTH - TOPIC_TRUNCATION_MARK.length).join("") + TOPIC_TRUNCATION_MARK;
}

/**
 * The stream a stream message goes to (Zulip's `extract_stream_indicator`):
 * a JSON integer is an ID, a JSON string or a raw (non-JSON) string a name;
 * a one-element list is unwrapped for legacy clients.
 * @param to the `to` parameter decoded as JSON when it parses, else the raw string
 * @throws JsonableError `Expected exactly one channel` / `Invalid data type for channel`
 */
export function streamIndicator(to: unknown): string | number {
  let data = to;
  if (Array.isArray(data)) {
    if (data.length !== 1) throw new JsonableError("Expected exactly one channel");
    data = data[0];
  }
  if (typeof data === "string") return data.trim();
  if (typeof data === "number" && Number.isInteger(data)) return data;
  throw new JsonableError("Invalid data type for channel");
}

/**
 * The recipients of a private message (Zulip's `extract_private_recipients`):
 * a JSON list of user IDs, a JSON list of emails, or a comma-separated email
 * string (JSON or raw). Duplicates and empty emails are dropped.
 * @returns `{ids}` or `{emails}`
 * @throws JsonableError `Invalid data type for recipients`,
 *   `Recipient lists may contain emails or user IDs, but not both.`,
 *   `Message must have recipients`
 */
export function privateRecipients(to: unknown): { ids: number[] } | { emails: string[] } {
  let data = to;
  if (typeof data === "string") data = data.split(",");
  if (!Array.isArray(data)) throw new JsonableError("Invalid data type for recipients");
  if (data.length === 0) throw new JsonableError("Message must have recipients");
  const mixed = new JsonableError("Recipient lists may contain emails or user IDs, but not both.");
  if (typeof data[0] === "string") {
    if (data.some((x) => typeof x !== "string")) throw mixed;
    const emails = [...new Set((data as string[]).map((e) => e.trim()).filter((e) => e !== ""))];
    if (emails.length === 0) throw new JsonableError("Message must have recipients");
    return { emails };
  }
  if (!Number.isInteger(data[0])) throw new JsonableError("Invalid data type for recipients");
  if (data.some((x) => !Number.isInteger(x))) throw mixed;
  return { ids: [...new Set(data as number[])] };
}

/**
 * Client names of Zulip's own apps, whose messages count as sent by a human
 * reading the conversation (Zulip's `Client.default_read_by_sender`): the
 * web app (`website`), the mobile apps, the desktop app, the terminal
 * client. Compared lower-cased; any name containing `desktop app` also
 * counts. Everything else — `ZulipPython`, `ZulipJS`, bots, integrations,
 * curl, `Unspecified` — is an API client: the sender's own message starts
 * unread for them, so that messages an integration sends with its owner's
 * key still notify the owner (https://zulip.com/api/update-message-flags#available-flags:
 * the sender's own messages start read only when sent by a non-API client).
 */
export const HUMAN_CLIENT_NAMES: ReadonlySet<string> = new Set([
  "website",
  "zulipandroid",
  "zulipios",
  "zulipdesktop",
  "zulipmobile",
  "zulipelectron",
  "zulipterminal",
  "snipe",
  "ios",
  "android",
]);

/**
 * Whether the sender's own copy of a message starts read: the explicit
 * `read_by_sender` parameter (feature level 236) when sent, else whether
 * the sending client is one of {@link HUMAN_CLIENT_NAMES}.
 */
export function readBySender(clientName: string, explicit: boolean | undefined): boolean {
  if (explicit !== undefined) return explicit;
  const name = clientName.toLowerCase();
  return HUMAN_CLIENT_NAMES.has(name) || name.includes("desktop app");
}
