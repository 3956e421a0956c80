/**
 * What channel settings show of streams (https://zulip.com/help/channel-settings):
 * every stream the reader can see with all its settings, the reader's
 * subscriptions with their personal settings, and subscriber lists once
 * fetched. Built from `POST /register` (`streams`, `subscriptions`,
 * `never_subscribed`) and kept by `stream` and `subscription` events
 * (including `peer_add`/`peer_remove`) through {@link applyChannelEvent}.
 */
import type { ServerEvent, StreamWireObject, SubscriptionWireObject } from "./types.js";

/** The channel part of the client state. */
export interface ChannelState {
  /** Every stream the reader can see, by ID. */
  streams: ReadonlyMap<number, StreamWireObject>;
  /** The reader's subscriptions, by stream ID, with their personal settings (notification settings null = inherit). */
  subs: ReadonlyMap<number, SubscriptionWireObject>;
  /** Subscriber user IDs of the streams whose lists were fetched (`GET /streams/{id}/members`); absent: not known. */
  subscribers: ReadonlyMap<number, ReadonlySet<number>>;
}

/** An empty channel state. */
export const EMPTY_CHANNELS: ChannelState = { streams: new Map(), subs: new Map(), subscribers: new Map() };

/** The stream fields of a subscription object (the rest are the reader's own settings). */
export function streamOf(s: StreamWireObject): StreamWireObject {
  const {
    stream_id, name, description, rendered_description, date_created, creator_id, invite_only, is_web_public,
    stream_post_policy, message_retention_days, history_public_to_subscribers, first_message_id,
    is_announcement_only, can_remove_subscribers_group, stream_weekly_traffic,
  } = s;
  return {
    stream_id, name, description, rendered_description, date_created, creator_id, invite_only, is_web_public,
    stream_post_policy, message_retention_days, history_public_to_subscribers, first_message_id,
    is_announcement_only, can_remove_subscribers_group, stream_weekly_traffic,
  };
}

/**
 * The channel state of a register answer: `streams`, then `never_subscribed`
 * and `subscriptions` (whose stream fields are current too); `subscribers`
 * lists when the answer carries them (`include_subscribers`).
 */
export function channelsFromRegister(r: Record<string, unknown>): ChannelState {
  const subs = (r.subscriptions as SubscriptionWireObject[] | undefined) ?? [];
  const never = (r.never_subscribed as (StreamWireObject & { subscribers?: number[] })[] | undefined) ?? [];
  const streams = new Map<number, StreamWireObject>();
  for (const s of (r.streams as StreamWireObject[] | undefined) ?? []) streams.set(s.stream_id, streamOf(s));
  for (const s of [...never, ...subs]) streams.set(s.stream_id, streamOf(s));
  const subscribers = new Map<number, ReadonlySet<number>>();
  for (const s of [...never, ...subs]) if (s.subscribers) subscribers.set(s.stream_id, new Set(s.subscribers));
  return { streams, subs: new Map(subs.map((s) => [s.stream_id, { ...s }])), subscribers };
}

/** Stream properties of a `stream` `update` event that name a stream field as they are. */
const STREAM_FIELDS = new Set([
  "name", "description", "invite_only", "is_web_public", "stream_post_policy", "message_retention_days",
  "history_public_to_subscribers", "can_remove_subscribers_group", "first_message_id",
]);

/** Adds or removes people from the known subscriber lists of streams. */
function changePeers(
  lists: ReadonlyMap<number, ReadonlySet<number>>,
  streamIds: number[],
  userIds: number[],
  add: boolean,
): ReadonlyMap<number, ReadonlySet<number>> {
  const out = new Map(lists);
  for (const id of streamIds) {
    const old = out.get(id);
    if (!old) continue;
    const next = new Set(old);
    for (const u of userIds) {
      if (add) next.add(u);
      else next.delete(u);
    }
    out.set(id, next);
  }
  return out;
}

/**
 * Applies a `stream` or `subscription` event (https://zulip.com/api/get-events#stream-create
 * and following) to the channel state; other events leave it as it is.
 * `myUserId` is the reader, who joins or leaves known subscriber lists with
 * their own `add`/`remove`.
 */
export function applyChannelEvent(c: ChannelState, event: ServerEvent, myUserId: number): ChannelState {
  if (event.type === "stream") {
    const streams = new Map(c.streams);
    if (event.op === "create") {
      for (const s of event.streams) streams.set(s.stream_id, streamOf(s));
      return { ...c, streams };
    }
    if (event.op === "delete") {
      const subs = new Map(c.subs);
      const subscribers = new Map(c.subscribers);
      for (const s of event.streams) {
        streams.delete(s.stream_id);
        subs.delete(s.stream_id);
        subscribers.delete(s.stream_id);
      }
      return { streams, subs, subscribers };
    }
    if (event.op === "update") {
      const change: Record<string, unknown> = {};
      if (STREAM_FIELDS.has(event.property)) change[event.property] = event.value;
      if (event.rendered_description !== undefined) change.rendered_description = event.rendered_description;
      if (event.history_public_to_subscribers !== undefined) change.history_public_to_subscribers = event.history_public_to_subscribers;
      if (event.is_web_public !== undefined) change.is_web_public = event.is_web_public;
      if (event.property === "stream_post_policy") change.is_announcement_only = event.value === 2;
      const old = streams.get(event.stream_id);
      if (old) streams.set(event.stream_id, { ...old, ...change });
      const sub = c.subs.get(event.stream_id);
      const subs = sub ? new Map(c.subs).set(event.stream_id, { ...sub, ...change }) : c.subs;
      return { ...c, streams, subs };
    }
    return c;
  }
  if (event.type !== "subscription") return c;
  switch (event.op) {
    case "add": {
      const streams = new Map(c.streams);
      const subs = new Map(c.subs);
      for (const s of event.subscriptions as SubscriptionWireObject[]) {
        const { subscribers: _list, ...sub } = s;
        streams.set(s.stream_id, streamOf(s));
        subs.set(s.stream_id, sub);
      }
      const ids = event.subscriptions.map((s) => s.stream_id);
      return { streams, subs, subscribers: changePeers(c.subscribers, ids, [myUserId], true) };
    }
    case "remove": {
      const subs = new Map(c.subs);
      for (const s of event.subscriptions) subs.delete(s.stream_id);
      const ids = event.subscriptions.map((s) => s.stream_id);
      return { ...c, subs, subscribers: changePeers(c.subscribers, ids, [myUserId], false) };
    }
    case "update": {
      const old = c.subs.get(event.stream_id);
      if (!old) return c;
      const change: Record<string, unknown> = { [event.property]: event.value };
      if (event.property === "in_home_view") change.is_muted = event.value !== true;
      if (event.property === "is_muted") change.in_home_view = event.value !== true;
      return { ...c, subs: new Map(c.subs).set(event.stream_id, { ...old, ...change }) };
    }
    case "peer_add":
    case "peer_remove":
      return { ...c, subscribers: changePeers(c.subscribers, event.stream_ids, event.user_ids, event.op === "peer_add") };
    default:
      return c;
  }
}

/** Stores a stream's subscriber list as `GET /streams/{id}/members` answered it. */
export function setSubscribers(c: ChannelState, streamId: number, userIds: readonly number[]): ChannelState {
  return { ...c, subscribers: new Map(c.subscribers).set(streamId, new Set(userIds)) };
}

/** A stream as the channel lists show it: the stream, the reader's subscription if any, and its subscriber count when known. */
export interface StreamRow {
  stream: StreamWireObject;
  sub: SubscriptionWireObject | undefined;
  subscriberCount: number | undefined;
}

/**
 * The streams of a channel list (https://zulip.com/help/browse-and-subscribe-to-channels):
 * `subscribed` the reader's subscriptions, `all` every stream they can see;
 * only those whose name or description contains every word of `query`
 * (case-insensitive); sorted by name.
 */
export function streamRows(c: ChannelState, which: "subscribed" | "all", query: string): StreamRow[] {
  const words = query.toLowerCase().split(/\s+/).filter((w) => w !== "");
  const rows: StreamRow[] = [];
  for (const stream of c.streams.values()) {
    const sub = c.subs.get(stream.stream_id);
    if (which === "subscribed" && !sub) continue;
    const text = `${stream.name} ${stream.description}`.toLowerCase();
    if (!words.every((w) => text.includes(w))) continue;
    rows.push({ stream: sub ? streamOf(sub) : stream, sub, subscriberCount: c.subscribers.get(stream.stream_id)?.size });
  }
  return rows.sort((a, b) => a.stream.name.toLowerCase().localeCompare(b.stream.name.toLowerCase()));
}

/** A stream's privacy as Zulip names it (https://zulip.com/help/channel-permissions). */
export type StreamPrivacy = "web-public" | "public" | "private-shared" | "private-protected";

/** The privacy of a stream. */
export function privacyOf(s: Pick<StreamWireObject, "invite_only" | "is_web_public" | "history_public_to_subscribers">): StreamPrivacy {
  if (s.is_web_public) return "web-public";
  if (!s.invite_only) return "public";
  return s.history_public_to_subscribers ? "private-shared" : "private-protected";
}

/** The names and explanations Zulip's privacy choices carry. */
export const PRIVACY_LABELS: Record<StreamPrivacy, { label: string; hint: string }> = {
  "web-public": { label: "Web-public", hint: "Organization members can join (guests must be invited by a subscriber); anyone on the Internet can view complete message history without creating an account" },
  public: { label: "Public", hint: "Organization members can join (guests must be invited by a subscriber); organization members can view complete message history without joining" },
  "private-shared": { label: "Private, shared history", hint: "Must be invited by a subscriber; new subscribers can view complete message history; hidden from non-administrator users" },
  "private-protected": { label: "Private, protected history", hint: "Must be invited by a subscriber; new subscribers can only see messages sent after they join; hidden from non-administrator users" },
};

/** The `PATCH /streams/{id}` or `POST /users/me/subscriptions` parameters of a privacy. */
export function privacyParams(p: StreamPrivacy): { is_private: boolean; is_web_public: boolean; history_public_to_subscribers: boolean } {
  return {
    is_private: p === "private-shared" || p === "private-protected",
    is_web_public: p === "web-public",
    history_public_to_subscribers: p !== "private-protected",
  };
}

/** `stream_post_policy` values and Zulip's names for them (https://zulip.com/help/channel-posting-policy). */
export const POST_POLICIES: { value: number; label: string }[] = [
  { value: 1, label: "Everyone" },
  { value: 3, label: "Everyone except new members" },
  { value: 4, label: "Administrators and moderators" },
  { value: 2, label: "Administrators only" },
];

/** One subscriber as the Subscribers tab lists them. */
export interface SubscriberRow {
  user_id: number;
  full_name: string;
  email: string;
}

/**
 * The subscribers whose name or email contains `query` (case-insensitive),
 * sorted by name; people the reader's user list lacks show as "Unknown user".
 */
export function subscriberRows(
  users: ReadonlyMap<number, { full_name: string; email: string }>,
  ids: ReadonlySet<number>,
  query: string,
): SubscriberRow[] {
  const q = query.trim().toLowerCase();
  const rows = [...ids].map((id) => {
    const u = users.get(id);
    return { user_id: id, full_name: u?.full_name ?? "Unknown user", email: u?.email ?? "" };
  });
  return rows
    .filter((r) => !q || r.full_name.toLowerCase().includes(q) || r.email.toLowerCase().includes(q))
    .sort((a, b) => a.full_name.localeCompare(b.full_name));
}
