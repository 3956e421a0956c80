/**
 * Data loading for the bench, straight through the data layer (loading
 * 100,000 messages or 10,000 users through HTTP would take far longer than
 * the bench itself on DynamoDB Local).
 *
 * Users are written with `putNewUser` (one transaction each, many in
 * flight) rather than `doCreateUser`: the latter reads the whole realm and
 * sends a `realm_user` event to every user per creation, which is quadratic
 * in a 10,000-user bulk load and measures nothing this bench is about.
 * Subscriptions are written with the streams helper's `newSubscription` and
 * the data layer's `putSubscriptions` (no events, for the same reason).
 */
import { generateApiKey, hashApiKey } from "../../shared/auth/api-key.js";
import { newSubscription } from "../../shared/actions/streams/bulk-subscriptions.js";
import { doCreateStreams } from "../../shared/actions/streams/create-streams.js";
import { batchWrite } from "../../shared/data/batch-write.js";
import { allocateIds } from "../../shared/data/counters.js";
import type { MessageRecord } from "../../shared/data/records/message.js";
import type { RealmRecord } from "../../shared/data/records/realm.js";
import type { StreamRecord } from "../../shared/data/records/stream.js";
import type { UserMessageRecord } from "../../shared/data/records/user-message.js";
import type { UserRecord } from "../../shared/data/records/user.js";
import { messageItem } from "../../shared/data/messages.js";
import { noReactions } from "../../shared/data/reactions.js";

import { getOrCreateDirectRecipientId } from "../../shared/data/recipients.js";
import { putPostings } from "../../shared/data/search-index.js";

import { putSubscriptions } from "../../shared/data/subscriptions.js";
import { forEachLimit } from "../../shared/data/transact-updates.js";
import { userMessageItem } from "../../shared/data/user-messages.js";
import { putNewUser } from "../../shared/data/users.js";
import { hashPassword } from "../../shared/auth/password.js";
import type { Deps } from "../../shared/deps.js";
import { avatarUrlFor } from "../../shared/domain/avatar.js";
import { apiEmail } from "../../shared/domain/email.js";
import { Role } from "../../shared/domain/roles.js";
import { messageTerms } from "../../shared/narrow/search.js";

/** What a load driver needs to act as a user over HTTP. */
export interface BenchUser {
  id: number;
  email: string;
  apiKey: string;
}

/** The HTTP identity of a stored user. */
export function benchUser(u: UserRecord): BenchUser {
  return { id: u.user_id, email: u.delivery_email, apiKey: u.api_key };
}

/**
 * Creates `count` members named `<prefix>-<n>` (one counter update for the
 * whole block of IDs, then one `putNewUser` transaction per user, 24 in
 * flight). No password unless `options.password` (the web part signs in
 * through the sign-in form); otherwise the bench authenticates with API keys.
 * @returns the stored users in ID order
 */
export async function createUsers(
  deps: Deps,
  realm: RealmRecord,
  prefix: string,
  count: number,
  options: { password?: string } = {},
): Promise<UserRecord[]> {
  if (count <= 0) return [];
  const passwordHash = options.password ? await hashPassword(options.password, deps.config.PASSWORD_HASH_LOG2_N) : null;
  const first = await allocateIds(deps, "user", count);
  const now = Math.floor(deps.clock.now() / 1000);
  const users: UserRecord[] = Array.from({ length: count }, (_, i) => ({
    realm_id: realm.id,
    user_id: first + i,
    delivery_email: `${prefix}-${i}@bench.example`,
    full_name: `${prefix} ${i}`,
    role: Role.MEMBER,
    is_active: true,
    is_bot: false,
    bot_type: null,
    bot_owner_id: null,
    is_billing_admin: false,
    avatar_source: "G",
    avatar_version: 1,
    timezone: "",
    date_joined: now,
    api_key: generateApiKey(),
    password_hash: passwordHash,
    settings: {},
    profile_data: {},
  }));
  await forEachLimit(users, 24, async (u) => {
    if (!(await putNewUser(deps, u, hashApiKey(u.api_key)))) throw new Error(`bench user ${u.delivery_email} exists`);
  });
  return users;
}

/** Creates one public stream with `doCreateStreams` (call before the bulk users exist: it tells every active user). */
export async function createStream(deps: Deps, realm: RealmRecord, creator: UserRecord, name: string): Promise<StreamRecord> {
  const { created, existing } = await doCreateStreams(deps, realm, creator, [{ name, description: `Bench stream ${name}` }]);
  return created[0] ?? existing[0]!;
}

/** Subscribes users to a stream with default settings: BatchWriteItem, 25 rows per call, 4 in flight. */
export async function subscribeUsers(deps: Deps, stream: StreamRecord, users: UserRecord[]): Promise<void> {
  const CHUNK = 2000;
  for (let i = 0; i < users.length; i += CHUNK) {
    await putSubscriptions(deps, users.slice(i, i + CHUNK).map((u) => newSubscription(u, stream)));
  }
}

/** Sizes and shape of the message history {@link loadHistory} writes. */
export interface HistoryPlan {
  /** Messages in all (stream messages plus DMs). */
  messages: number;
  /** Distinct topics of the history stream. */
  topics: number;
  /** Share of messages that are DMs between the viewer and the first writer. */
  dmShare: number;
  /** Share of the viewer's rows that are starred. */
  starredShare: number;
  /** Share of the viewer's rows still unread (the rest are read: old history). */
  unreadShare: number;
  /** Share of messages that contain {@link SEARCH_WORD} (only these get search postings). */
  searchShare: number;
  /** Messages written per parallel batch (≈ 3 items each). */
  batchSize: number;
  /** Parallel batches in flight. */
  parallel: number;
}

/** The word some history messages contain; the `search` narrow looks for it. */
export const SEARCH_WORD = "zeppelin";

/** What {@link loadHistory} wrote. */
export interface HistoryInfo {
  streamMessages: number;
  dmMessages: number;
  starred: number;
  searchable: number;
  topicName: string;
  /** Messages in {@link HistoryInfo.topicName}. */
  topicMessages: number;
  items: number;
  elapsedMs: number;
}

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32), so every run loads the same history. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt labore dolore magna aliqua".split(" ");

/**
 * Writes a message history through the data layer (`messageItem`,
 * `userMessageItem`, `batchWrite`), in parallel batches: stream messages in
 * `stream` spread over `plan.topics` topics, sent in turn by `writers`, and
 * DMs between `viewer` and the first writer. UserMessage rows are written
 * for the viewer and for each message's sender — the rows the bench's reads
 * touch; the history stream's other subscribers would add rows to other
 * users' partitions only.
 *
 * Search postings are written (with the indexer's `putPostings`) only for
 * the messages that contain {@link SEARCH_WORD}: indexing every word of
 * 100,000 messages would triple the load time for one narrow.
 */
export async function loadHistory(
  deps: Deps,
  realm: RealmRecord,
  stream: StreamRecord,
  viewer: UserRecord,
  writers: UserRecord[],
  plan: HistoryPlan,
  onProgress?: (done: number) => void,
): Promise<HistoryInfo> {
  const start = performance.now();
  const dmPeer = writers[0]!;
  const dmRecipientId = await getOrCreateDirectRecipientId(deps, realm.id, [viewer.user_id, dmPeer.user_id]);
  const firstId = await allocateIds(deps, "message", plan.messages);
  const nowSec = Math.floor(deps.clock.now() / 1000);
  const people = new Map([viewer, ...writers].map((u) => [u.user_id, u]));
  const display = (u: UserRecord) => ({ id: u.user_id, email: apiEmail(u, realm, deps.config), full_name: u.full_name, is_mirror_dummy: false });
  const dmDisplay = [viewer, dmPeer].sort((a, b) => a.user_id - b.user_id).map(display);
  const info: HistoryInfo = {
    streamMessages: 0,
    dmMessages: 0,
    starred: 0,
    searchable: 0,
    topicName: "topic 0",
    topicMessages: 0,
    items: 0,
    elapsedMs: 0,
  };

  const build = (i: number): { items: Record<string, unknown>[]; searchable?: MessageRecord } => {
    // Seeded per message: the same history whatever order the parallel batches run in.
    const random = rng(0x9e3779b1 ^ (i * 2654435761));
    const id = firstId + i;
    const isDm = random() < plan.dmShare;
    const sender = isDm ? (random() < 0.5 ? viewer : dmPeer) : writers[i % writers.length]!;
    const topic = isDm ? "" : `topic ${Math.floor(random() * plan.topics)}`;
    const searchable = random() < plan.searchShare;
    const words = Array.from({ length: 8 + Math.floor(random() * 12) }, () => WORDS[Math.floor(random() * WORDS.length)]);
    if (searchable) words.splice(Math.floor(random() * words.length), 0, SEARCH_WORD);
    const content = `Message ${i}: ${words.join(" ")}.`;
    const senderEmail = apiEmail(sender, realm, deps.config);
    const message: MessageRecord = {
      id,
      realm_id: realm.id,
      recipient_type: isDm ? "private" : "stream",
      recipient_id: isDm ? dmRecipientId : stream.recipient_id,
      ...(isDm ? { dm_user_ids: dmDisplay.map((d) => d.id) } : { stream_id: stream.stream_id }),
      topic,
      display_recipient: isDm ? dmDisplay : stream.name,
      sender_id: sender.user_id,
      sender_email: senderEmail,
      sender_full_name: sender.full_name,
      sender_realm_str: realm.string_id,
      sender_avatar_url: avatarUrlFor(sender, { clientGravatar: false, emailVisible: true })!,
      sender_gravatar: true,
      content,
      rendered_content: `<p>${content}</p>`,
      rendered_content_version: 1,
      // One message every ~3 seconds up to now.
      timestamp: nowSec - (plan.messages - i) * 3,
      client: "bench",
      is_me_message: false,
      has_link: false,
      has_image: false,
      has_attachment: false,
      mentioned_user_ids: [],
      mentioned_group_ids: [],
      wildcard_mentioned: false,
      ...noReactions(),
      edit_history: [],
      submessages: [],
      topic_links: [],
    };
    const viewerFlags: string[] = [];
    if (sender.user_id === viewer.user_id || random() >= plan.unreadShare) viewerFlags.push("read");
    if (random() < plan.starredShare) {
      viewerFlags.push("starred");
      info.starred++;
    }
    const rows: UserMessageRecord[] = [
      { user_id: viewer.user_id, message_id: id, recipient_id: message.recipient_id, is_private: isDm, flags: viewerFlags },
    ];
    const other = isDm ? (sender.user_id === viewer.user_id ? dmPeer : sender) : sender;
    if (other.user_id !== viewer.user_id && people.has(other.user_id)) {
      rows.push({ user_id: other.user_id, message_id: id, recipient_id: message.recipient_id, is_private: isDm, flags: ["read"] });
    }
    if (isDm) info.dmMessages++;
    else info.streamMessages++;
    if (topic === info.topicName) info.topicMessages++;
    if (searchable) info.searchable++;
    return { items: [messageItem(message), ...rows.map(userMessageItem)], searchable: searchable ? message : undefined };
  };

  let done = 0;
  const batches = Math.ceil(plan.messages / plan.batchSize);
  await forEachLimit(Array.from({ length: batches }, (_, b) => b), plan.parallel, async (b) => {
    const items: Record<string, unknown>[] = [];
    const toIndex: MessageRecord[] = [];
    const end = Math.min(plan.messages, (b + 1) * plan.batchSize);
    for (let i = b * plan.batchSize; i < end; i++) {
      const built = build(i);
      items.push(...built.items);
      if (built.searchable) toIndex.push(built.searchable);
    }
    await batchWrite(deps, items);
    for (const m of toIndex) await putPostings(deps, realm.id, m.id, messageTerms(m.topic, m.content));
    info.items += items.length;
    done += end - b * plan.batchSize;
    onProgress?.(done);
  });
  info.elapsedMs = performance.now() - start;
  return info;
}
