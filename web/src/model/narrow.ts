/**
 * Narrows as the web app holds them: Zulip's narrow terms
 * (https://zulip.com/api/construct-narrow), the URL hash form of Zulip's web
 * app (`#narrow/channel/12-general/topic/lunch`), and the search box's typed
 * queries (`channel:general -is:starred words`). Pure functions, no view code.
 */

import { conversationKey, isMentioned, messageUserIds, RESOLVED_TOPIC_PREFIX, sameTopic, type Message } from "./types.js";

/** The operators the app builds and reads; the canonical names the server takes. */
export type Operator =
  | "channel"
  | "topic"
  | "sender"
  | "dm"
  | "dm-including"
  | "is"
  | "has"
  | "search"
  | "near"
  | "id"
  | "in";

/**
 * One narrow term. Operands: `channel` a stream ID (or a name the app could not
 * resolve), `sender` a user ID (or an email), `dm` the other people's user IDs
 * (or emails, comma-separated), `near`/`id` a message ID, the rest strings.
 */
export interface NarrowTerm {
  operator: Operator;
  operand: string | number | number[];
  negated?: boolean;
}

/** What the app shows: the combined feed, the inbox, or the messages of a narrow. */
export type View = { kind: "feed" } | { kind: "inbox" } | { kind: "narrow"; terms: NarrowTerm[] };

/** Names the app needs to write readable hashes and to resolve typed names to IDs. */
export interface NarrowNames {
  streamName(streamId: number): string | undefined;
  streamIdByName(name: string): number | undefined;
  userName(userId: number): string | undefined;
  /** A user ID by email, or by full name when exactly one person has it. */
  userIdByEmailOrName(text: string): number | undefined;
  myUserId: number;
}

/** Operator names as typed or found in hashes → the canonical operator. */
export const ALIASES: Record<string, Operator> = {
  channel: "channel",
  stream: "channel",
  topic: "topic",
  subject: "topic",
  sender: "sender",
  from: "sender",
  dm: "dm",
  "pm-with": "dm",
  "dm-including": "dm-including",
  is: "is",
  has: "has",
  search: "search",
  near: "near",
  id: "id",
  in: "in",
};

/**
 * Zulip's hash encoding of one URL component: `encodeURIComponent`, then `.`,
 * `(` and `)` percent-encoded, then every `%` written `.` (so topics with dots
 * and percent signs survive servers and browsers that rewrite `%`).
 */
export function encodeHashComponent(text: string): string {
  return encodeURIComponent(text)
    .replace(/[.()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%/g, ".");
}

/** The inverse of {@link encodeHashComponent}; undefined for a malformed component. */
export function decodeHashComponent(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\./g, "%"));
  } catch {
    return undefined;
  }
}

/** The slug of a name in a hash (`Design team` → `Design-team`), as Zulip writes stream and user links. */
function slug(name: string): string {
  return name.replace(/[\s/]+/g, "-");
}

/** `12-general` → 12; a bare name stays a string. */
function leadingId(text: string): number | string {
  const m = /^(\d+)(?:-|$)/.exec(text);
  return m ? Number(m[1]) : text;
}

/** `3,7-group` → [3, 7]; emails stay a string. */
function leadingIdList(text: string): number[] | string {
  const m = /^(\d+(?:,\d+)*)(?:-|$)/.exec(text);
  return m ? m[1]!.split(",").map(Number) : text;
}

/** Turns an operand as read from a hash or a query into the term's typed operand. */
export function typedOperand(operator: Operator, raw: string): NarrowTerm["operand"] {
  switch (operator) {
    case "channel":
    case "sender":
    case "dm-including":
      return leadingId(raw);
    case "dm":
      return leadingIdList(raw);
    case "near":
    case "id":
      return /^\d+$/.test(raw) ? Number(raw) : raw;
    default:
      return raw;
  }
}

/**
 * Reads a location hash (`#narrow/channel/12-general/topic/lunch`, `#inbox`,
 * `#feed`, empty; also `#starred`, `#mentions`, `#all_messages`) into a view.
 * Unknown hashes give the combined feed, as Zulip's web app falls back to its home view.
 */
export function parseHash(hash: string): View {
  const h = hash.replace(/^#/, "");
  if (h === "inbox") return { kind: "inbox" };
  if (h === "starred") return { kind: "narrow", terms: [{ operator: "is", operand: "starred" }] };
  if (h === "mentions") return { kind: "narrow", terms: [{ operator: "is", operand: "mentioned" }] };
  if (!h.startsWith("narrow/")) return { kind: "feed" };
  const parts = h.slice("narrow/".length).split("/");
  const terms: NarrowTerm[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const rawOp = decodeHashComponent(parts[i]!);
    const rawOperand = decodeHashComponent(parts[i + 1]!);
    if (rawOp === undefined || rawOperand === undefined) return { kind: "feed" };
    const negated = rawOp.startsWith("-");
    const operator = ALIASES[negated ? rawOp.slice(1) : rawOp];
    if (!operator) return { kind: "feed" };
    terms.push({ operator, operand: typedOperand(operator, rawOperand), ...(negated ? { negated } : {}) });
  }
  return terms.length > 0 ? { kind: "narrow", terms } : { kind: "feed" };
}

/** The hash text of one operand, encoded: IDs with a readable slug (`12-general`, `3,7-group`; the IDs' commas left as they are). */
function hashOperand(term: NarrowTerm, names: Pick<NarrowNames, "streamName" | "userName">): string {
  const { operator, operand } = term;
  if (operator === "channel" && typeof operand === "number") {
    return encodeHashComponent(`${operand}-${slug(names.streamName(operand) ?? "unknown")}`);
  }
  if ((operator === "sender" || operator === "dm-including") && typeof operand === "number") {
    return encodeHashComponent(`${operand}-${slug(names.userName(operand) ?? "user")}`);
  }
  if (operator === "dm" && Array.isArray(operand)) {
    const label = operand.length === 1 ? slug(names.userName(operand[0]!) ?? "user") : "group";
    return `${operand.join(",")}-${encodeHashComponent(label)}`;
  }
  return encodeHashComponent(String(operand));
}

/**
 * Writes a view as Zulip's web app hash: `#feed`, `#inbox`, or `#narrow/` and
 * each term as `operator/operand` (negated operators with a leading `-`),
 * every component through {@link encodeHashComponent}.
 */
export function encodeHash(view: View, names: Pick<NarrowNames, "streamName" | "userName">): string {
  if (view.kind === "feed") return "#feed";
  if (view.kind === "inbox") return "#inbox";
  const parts = view.terms.flatMap((t) => [
    encodeHashComponent(`${t.negated ? "-" : ""}${t.operator}`),
    hashOperand(t, names),
  ]);
  return `#narrow/${parts.join("/")}`;
}

/** The hash of a stream, or of one of its topics. */
export function streamHash(streamId: number, streamName: string, topic?: string): string {
  const terms: NarrowTerm[] = [{ operator: "channel", operand: streamId }];
  if (topic !== undefined) terms.push({ operator: "topic", operand: topic });
  return encodeHash({ kind: "narrow", terms }, { streamName: () => streamName, userName: () => undefined });
}

/** The hash of a direct-message conversation with `userIds` (the others; the reader alone for their own notes). */
export function dmHash(userIds: number[], userName: (id: number) => string | undefined): string {
  const ids = [...userIds].sort((a, b) => a - b);
  return encodeHash({ kind: "narrow", terms: [{ operator: "dm", operand: ids }] }, { streamName: () => undefined, userName });
}

/**
 * The `narrow` parameter of `GET /messages` for a view
 * (https://zulip.com/api/get-messages): the terms as the server takes them,
 * and for the combined feed `in:home` (messages not hidden by muting). A
 * `near` term is left out: it is where the view opens (the request's
 * `anchor`), not a filter, and the server takes its operand only as a string.
 */
export function apiNarrow(view: View): { operator: string; operand: string | number | number[]; negated?: boolean }[] {
  if (view.kind !== "narrow") return [{ operator: "in", operand: "home" }];
  return view.terms.filter((t) => t.operator !== "near").map((t) => ({ operator: t.operator, operand: t.operand, ...(t.negated ? { negated: true } : {}) }));
}

/**
 * The message a view opens around (a `near` term with a message ID, as in
 * Zulip's links to a message, https://zulip.com/help/link-to-a-message-or-conversation),
 * or undefined.
 */
export function nearMessageId(view: View): number | undefined {
  if (view.kind !== "narrow") return undefined;
  const near = view.terms.find((t) => t.operator === "near" && !t.negated && typeof t.operand === "number");
  return near ? (near.operand as number) : undefined;
}

/** A stable key of a view, for caching its message list. */
export function viewKey(view: View): string {
  return view.kind === "narrow" ? JSON.stringify(view.terms.map((t) => [t.operator, t.operand, !!t.negated])) : view.kind;
}

/** The stream and topic a narrow is about (a positive `channel` term, and a `topic` term if any). */
export function narrowStreamTopic(terms: NarrowTerm[]): { streamId: number; topic?: string } | undefined {
  const channel = terms.find((t) => t.operator === "channel" && !t.negated && typeof t.operand === "number");
  if (!channel) return undefined;
  const topic = terms.find((t) => t.operator === "topic" && !t.negated);
  return { streamId: channel.operand as number, ...(topic ? { topic: String(topic.operand) } : {}) };
}

/** The other people of a direct-message narrow (a positive `dm` term with IDs). */
export function narrowDmUsers(terms: NarrowTerm[]): number[] | undefined {
  const dm = terms.find((t) => t.operator === "dm" && !t.negated && Array.isArray(t.operand));
  return dm ? (dm.operand as number[]) : undefined;
}

/** What {@link messageMatchesNarrow} needs beyond the message: the reader and their muting. */
export interface MatchContext {
  myUserId: number;
  /** Whether the reader muted this stream. */
  isStreamMuted(streamId: number): boolean;
  /** The reader's visibility policy for a topic (https://zulip.com/api/update-user-topic: 0 none, 1 muted, 2 unmuted, 3 followed). */
  topicPolicy(streamId: number, topic: string): number;
}

/** Whether the combined feed (`in:home`) shows a message: not in a muted stream (unless the topic is unmuted or followed) nor a muted topic. */
export function visibleAtHome(message: Pick<Message, "type" | "stream_id" | "subject">, ctx: MatchContext): boolean {
  if (message.type !== "stream" || message.stream_id === undefined) return true;
  const policy = ctx.topicPolicy(message.stream_id, message.subject);
  if (policy === 1) return false;
  return !ctx.isStreamMuted(message.stream_id) || policy === 2 || policy === 3;
}

/** One term's match; undefined where a client cannot decide (search words, emails it did not resolve). */
function termMatches(m: Message, t: NarrowTerm, ctx: MatchContext): boolean | undefined {
  const { operand } = t;
  switch (t.operator) {
    case "channel":
      return typeof operand === "number" ? m.type === "stream" && m.stream_id === operand : undefined;
    case "topic":
      return m.type === "stream" && sameTopic(m.subject, String(operand));
    case "sender":
      return typeof operand === "number" ? m.sender_id === operand : undefined;
    case "dm": {
      if (!Array.isArray(operand)) return undefined;
      return m.type === "private" && conversationKey(messageUserIds(m), ctx.myUserId) === conversationKey(operand, ctx.myUserId);
    }
    case "dm-including":
      return typeof operand === "number" ? m.type === "private" && messageUserIds(m).includes(operand) : undefined;
    case "is":
      switch (operand) {
        case "starred":
          return m.flags.includes("starred");
        case "mentioned":
          return isMentioned(m.flags);
        case "unread":
          return !m.flags.includes("read");
        case "dm":
        case "private":
          return m.type === "private";
        case "resolved":
          return m.type === "stream" && m.subject.startsWith(RESOLVED_TOPIC_PREFIX);
        default:
          return undefined;
      }
    case "has": {
      // The rendered HTML tells: links are anchors, images are inline previews, attachments are uploads.
      const html = m.content;
      if (operand === "link") return /<a\s[^>]*href=/i.test(html);
      if (operand === "image") return html.includes("message_inline_image");
      if (operand === "attachment") return html.includes("/user_uploads/");
      return undefined;
    }
    case "in":
      if (operand === "home") return visibleAtHome(m, ctx);
      if (operand === "all") return true;
      return undefined;
    case "near":
      return true;
    case "id":
      return typeof operand === "number" ? m.id === operand : undefined;
    case "search":
      return undefined;
  }
}

/**
 * Whether a message belongs to a narrow, for the terms a client decides
 * locally (Zulip's client-side `Filter.predicate`): used to add a live message
 * to the open view. False where any term cannot be decided here (search words,
 * unresolved names): such views get new messages by fetching. The combined
 * feed (no terms) is `in:home`.
 */
export function messageMatchesNarrow(message: Message, terms: NarrowTerm[], ctx: MatchContext): boolean {
  const all = terms.length === 0 ? [{ operator: "in", operand: "home" } as NarrowTerm] : terms;
  for (const t of all) {
    const match = termMatches(message, t, ctx);
    if (match === undefined) return false;
    if (match === !!t.negated) return false;
  }
  return true;
}

/** Whether a narrow's terms are all decidable locally, so live messages can be added to it. */
export function narrowIsLocal(terms: NarrowTerm[]): boolean {
  return !terms.some((t) => t.operator === "search" || typeof t.operand === "string" && ["channel", "sender", "dm", "dm-including"].includes(t.operator));
}

/**
 * Whether Zulip marks messages read as they are seen in this view: the
 * combined feed, a stream, a topic and a direct-message conversation do;
 * search, starred, mentions and other `is:`/`has:` views do not
 * (Zulip's `Filter.can_mark_messages_read`).
 */
export function viewMarksRead(view: View): boolean {
  if (view.kind === "feed") return true;
  if (view.kind === "inbox") return false;
  // A link to a message (`near`) opens its conversation, which marks read as the conversation does.
  const ops = view.terms.filter((t) => t.operator !== "near").map((t) => (t.negated ? "-" : "") + t.operator).sort().join(" ");
  return ["channel", "channel topic", "dm", "in"].includes(ops);
}
