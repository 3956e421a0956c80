import { createHash } from "node:crypto";

/**
 * The stored form of `message` events in the event logs: one copy is
 * written per recipient, so its size decides the write units of every
 * send (DynamoDB bills one unit per started KB; see `item-size.ts`). The
 * copy keeps the same information in less room — short attribute names,
 * no field that equals its usual value, no field that the stored ones
 * determine — and {@link decodeStoredEvent} rebuilds the event exactly,
 * field for field and in the same order, so delivery and clients never see
 * the difference. An event this codec cannot represent exactly (an
 * unexpected field or shape) is stored as it is.
 *
 * What the compact form leaves out, because it can be rebuilt:
 * - `message.type`: `stream` exactly when `stream_id` is present;
 * - `message.content_type` when `text/html`, `subject` when empty, the
 *   empty `topic_links` / `reactions` / `submessages`, `is_me_message`
 *   when false;
 * - `message.content` when it is the plain paragraph of `raw_content`
 *   (`<p>` + the escaped source + `</p>`: most short messages);
 * - `message.avatar_url`'s gravatar prefix and hash when the hash is the
 *   one of `sender_email` (only the query string is kept);
 * - the sending client's `local_id` / `sender_queue_id` in the copies of
 *   users other than the sender: only the sender's own queue reads them.
 */

/** `message` fields in the order the wire form has them, each with its short stored name and the value it is left out at. */
const MESSAGE_FIELDS: readonly { wire: string; short: string; omitted?: unknown }[] = [
  { wire: "id", short: "i" },
  { wire: "type", short: "" },
  { wire: "sender_id", short: "s" },
  { wire: "sender_email", short: "e" },
  { wire: "sender_full_name", short: "n" },
  { wire: "sender_realm_str", short: "r" },
  { wire: "avatar_url", short: "a" },
  { wire: "recipient_id", short: "ri" },
  { wire: "display_recipient", short: "d" },
  { wire: "subject", short: "t", omitted: "" },
  { wire: "topic_links", short: "tl", omitted: [] },
  { wire: "content", short: "c" },
  { wire: "content_type", short: "ct", omitted: "text/html" },
  { wire: "timestamp", short: "ts" },
  { wire: "client", short: "cl" },
  { wire: "is_me_message", short: "me", omitted: false },
  { wire: "reactions", short: "re", omitted: [] },
  { wire: "submessages", short: "sm", omitted: [] },
  { wire: "stream_id", short: "si" },
  { wire: "edit_history", short: "eh" },
  { wire: "last_edit_timestamp", short: "le" },
];
const KNOWN_MESSAGE_FIELDS = new Set(MESSAGE_FIELDS.map((f) => f.wire));

/** Top-level fields of a stored `message` event and their short names (`message` itself becomes `z`). */
const EVENT_FIELDS: readonly { wire: string; short: string }[] = [
  { wire: "raw_content", short: "rc" },
  { wire: "local_id", short: "li" },
  { wire: "sender_queue_id", short: "sq" },
  { wire: "_public_stream", short: "ps" },
];
const KNOWN_EVENT_FIELDS = new Set(["type", "message", ...EVENT_FIELDS.map((f) => f.wire)]);
/** Only the sender's queue reads these (see delivery's local echo). */
const SENDER_ONLY_FIELDS = new Set(["local_id", "sender_queue_id"]);

const GRAVATAR_PREFIX = "https://secure.gravatar.com/avatar/";

function gravatarHash(email: string): string {
  return createHash("md5").update(email.trim().toLowerCase()).digest("hex");
}

/** Escapes text as the Markdown renderer escapes a paragraph's text (quotes stay as they are). */
function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** The rendering of a source that is one plain paragraph: what `content` is left out for. */
function plainParagraph(raw: string): string {
  return `<p>${escapeHtml(raw)}</p>`;
}

function isEmptyList(v: unknown): boolean {
  return Array.isArray(v) && v.length === 0;
}

function sameAsOmitted(value: unknown, omitted: unknown): boolean {
  return Array.isArray(omitted) ? isEmptyList(value) : value === omitted;
}

/** Options of {@link encodeStoredEvent}. */
export interface EncodeEventOptions {
  /**
   * The user whose log the copy goes to; copies for users other than the
   * message's sender leave out the sending client's echo fields. Undefined
   * (the realm's public log, read by many users' queues) keeps them.
   */
  forUserId?: number;
}

/**
 * The stored form of an event for one log copy: the compact form of a
 * `message` event (see the module comment), any other event unchanged.
 * @param event the event as an action publishes it (JSON-serialisable)
 */
export function encodeStoredEvent(event: object, options: EncodeEventOptions = {}): object {
  const e = event as Record<string, unknown>;
  if (e.type !== "message" || typeof e.message !== "object" || e.message === null) return event;
  if (Object.keys(e).some((k) => !KNOWN_EVENT_FIELDS.has(k))) return event;
  const message = e.message as Record<string, unknown>;
  if (Object.keys(message).some((k) => !KNOWN_MESSAGE_FIELDS.has(k))) return event;
  const isStream = message.stream_id !== undefined;
  if (message.type !== (isStream ? "stream" : "private")) return event;
  if (!("content" in message)) return event;
  const rawContent = e.raw_content;

  const z: Record<string, unknown> = {};
  for (const f of MESSAGE_FIELDS) {
    if (f.short === "" || !(f.wire in message)) continue;
    const value = message[f.wire];
    if (value === undefined) continue;
    if ("omitted" in f && sameAsOmitted(value, f.omitted)) continue;
    if (f.wire === "content" && typeof rawContent === "string" && value === plainParagraph(rawContent)) continue;
    if (f.wire === "avatar_url" && typeof value === "string" && typeof message.sender_email === "string") {
      const prefix = GRAVATAR_PREFIX + gravatarHash(message.sender_email);
      if (value.startsWith(prefix)) {
        z.ag = value.slice(prefix.length);
        continue;
      }
    }
    z[f.short] = value;
  }
  // `omitted` fields that were absent must stay absent: mark them so decoding does not invent them.
  const absent = MESSAGE_FIELDS.filter((f) => "omitted" in f && !(f.wire in message)).map((f) => f.short);
  if (absent.length > 0) z.x = absent;

  const stored: Record<string, unknown> = { type: "message", z };
  const senderCopy = options.forUserId === undefined || options.forUserId === message.sender_id;
  for (const f of EVENT_FIELDS) {
    if (e[f.wire] === undefined) continue;
    if (!senderCopy && SENDER_ONLY_FIELDS.has(f.wire)) continue;
    stored[f.short] = e[f.wire];
  }
  return stored;
}

/**
 * {@link encodeStoredEvent} for many copies of one event: encodes at most
 * twice (the sender's copy and everyone else's) whatever the audience.
 * @returns the stored form for a given recipient's log
 */
export function storedEventEncoder(event: object): (userId: number) => object {
  const message = (event as { message?: { sender_id?: unknown } }).message;
  const senderId = typeof message?.sender_id === "number" ? message.sender_id : undefined;
  let forSender: object | undefined;
  let forOthers: object | undefined;
  return (userId) =>
    userId === senderId
      ? (forSender ??= encodeStoredEvent(event, { forUserId: userId }))
      : (forOthers ??= encodeStoredEvent(event, { forUserId: userId }));
}

/**
 * The event a stored log copy holds: rebuilds a compact `message` event
 * (written by {@link encodeStoredEvent}) field for field; returns any
 * other stored event as it is.
 */
export function decodeStoredEvent(stored: Record<string, unknown> & { type: string }): Record<string, unknown> & { type: string } {
  if (stored.type !== "message" || typeof stored.z !== "object" || stored.z === null) return stored;
  const z = stored.z as Record<string, unknown>;
  const absent = new Set(Array.isArray(z.x) ? (z.x as string[]) : []);
  const rawContent = stored.rc;
  const message: Record<string, unknown> = {};
  for (const f of MESSAGE_FIELDS) {
    if (f.wire === "type") {
      message.type = z.si !== undefined ? "stream" : "private";
    } else if (f.wire === "avatar_url" && z.ag !== undefined) {
      message.avatar_url = GRAVATAR_PREFIX + gravatarHash(String(z.e)) + String(z.ag);
    } else if (f.wire === "content" && !(f.short in z)) {
      message.content = plainParagraph(String(rawContent));
    } else if (f.short in z) {
      message[f.wire] = z[f.short];
    } else if ("omitted" in f && !absent.has(f.short)) {
      message[f.wire] = Array.isArray(f.omitted) ? [] : f.omitted;
    }
  }
  const event: Record<string, unknown> & { type: string } = { type: "message", message };
  for (const f of EVENT_FIELDS) if (stored[f.short] !== undefined) event[f.wire] = stored[f.short];
  return event;
}
