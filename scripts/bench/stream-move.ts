/**
 * The life part's stream move: a `change_all` move of a whole topic to
 * another stream (`PATCH /messages/{id}` with `stream_id`), with every
 * message held by every subscriber (an unread row and a recipients entry
 * each, as a real send leaves them). Both streams are public with shared
 * history and have the same subscribers: the common "this topic belongs
 * in the other stream" move, which Zulip answers by updating the message
 * rows alone.
 *
 * The topic's target message is sent over HTTP; the rest of the topic is
 * written through the data layer (thousands of sends over HTTP would take
 * minutes), cloned from it.
 */
import { allocateIds } from "../../shared/data/counters.js";
import { batchWrite } from "../../shared/data/batch-write.js";
import { messageById, messageItem, sendRecipientsItems } from "../../shared/data/messages.js";
import type { RealmRecord } from "../../shared/data/records/realm.js";
import type { StreamRecord } from "../../shared/data/records/stream.js";
import type { UserRecord } from "../../shared/data/records/user.js";
import { userMessageItem } from "../../shared/data/user-messages.js";
import type { Deps } from "../../shared/deps.js";

import type { ApiClient, ApiResult } from "./http.js";
import { benchUser, createUsers, subscribeUsers } from "./seed.js";

/** The two streams of the move (created at setup with the other life streams). */
export const STREAM_MOVE_STREAMS = { from: "bench-life-smove-a", to: "bench-life-smove-b" } as const;

/** The moved topic's name (in both streams). */
export const STREAM_MOVE_TOPIC = "big move";

/** A topic ready to move: its target message and the request that moves it. */
export interface PreparedStreamMove {
  /** Messages of the topic, the target included. */
  messages: number;
  subscribers: number;
  /** Sends `PATCH /messages/{target}` with the destination stream, `change_all`, no notices. */
  move: () => Promise<ApiResult>;
}

/**
 * Subscribes `subscribers` users (the owner and new ones) to both streams,
 * sends the target over HTTP and writes `messages - 1` more messages of its
 * topic, each with a row for every subscriber (unread but for the sender's)
 * and its recipients items.
 */
export async function prepareStreamMove(
  deps: Deps,
  realm: RealmRecord,
  api: ApiClient,
  owner: UserRecord,
  streams: { from: StreamRecord; to: StreamRecord },
  sizes: { messages: number; subscribers: number },
): Promise<PreparedStreamMove> {
  const others = await createUsers(deps, realm, "life-smove", Math.max(0, sizes.subscribers - 1));
  const members = [owner, ...others];
  await subscribeUsers(deps, streams.from, members);
  await subscribeUsers(deps, streams.to, members);
  const sent = await api.call(benchUser(owner), "POST", "/messages", {
    type: "stream",
    to: streams.from.name,
    topic: STREAM_MOVE_TOPIC,
    content: "stream move target",
  });
  if (sent.status !== 200) throw new Error(`POST /messages (stream move target): HTTP ${sent.status}`);
  const target = sent.body.id as number;
  const template = (await messageById(deps, target))!;
  const count = sizes.messages - 1;
  const start = await allocateIds(deps, "message", count);
  const holders = members.map((u) => u.user_id);
  const BATCH = 50;
  for (let b = 0; b < count; b += BATCH) {
    const items: Record<string, unknown>[] = [];
    for (let i = b; i < Math.min(count, b + BATCH); i++) {
      const id = start + i;
      const sender = members[i % members.length]!;
      const content = `moved message ${i}`;
      items.push(messageItem({ ...template, id, sender_id: sender.user_id, content, rendered_content: `<p>${content}</p>` }));
      for (const u of holders) {
        const flags = u === sender.user_id ? ["read"] : [];
        items.push(userMessageItem({ user_id: u, message_id: id, recipient_id: template.recipient_id, is_private: false, flags }));
      }
      items.push(...sendRecipientsItems(id, holders));
    }
    await batchWrite(deps, items, [], 8);
  }
  return {
    messages: sizes.messages,
    subscribers: members.length,
    move: () =>
      api.call(benchUser(owner), "PATCH", `/messages/${target}`, {
        stream_id: streams.to.stream_id,
        propagate_mode: "change_all",
        send_notification_to_old_thread: false,
        send_notification_to_new_thread: false,
      }),
  };
}
