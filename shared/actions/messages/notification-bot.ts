import type { Deps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { StreamRecord } from "../../data/records/stream.js";
import type { UserRecord } from "../../data/records/user.js";

import { getOrCreateDirectRecipientId } from "../../data/recipients.js";
import { listStreamSubscriberIds } from "../../data/subscriptions.js";
import { realmUrl } from "../../domain/email.js";
import { loadMarkdownRenderer } from "../../markdown/load.js";
import { allocateIds } from "../../data/counters.js";
import { ensureNotificationBot } from "../users/notification-bot.js";
import { doSendMessage, INLINE_RECIPIENT_LIMIT } from "./do-send-message.js";

/**
 * Posts a notice as the Notification Bot to a stream topic, skipping the
 * stream's posting checks (Zulip's `internal_send_stream_message`). The
 * content may mention `refs.users` silently and link `refs.streams`.
 *
 * `options.limitUnreadUserIds` is Zulip's `limit_unread_user_ids`: every
 * recipient outside the set gets the notice already read (resolution
 * notices: unread only for the topic's participants). Large streams get
 * it through the `expand_stream_message` job's payload.
 *
 * @returns the notice's message ID
 */
export async function sendNotice(
  deps: Deps,
  realm: RealmRecord,
  stream: StreamRecord,
  topic: string,
  content: string,
  refs: { users: UserRecord[]; streams: StreamRecord[] },
  options: { limitUnreadUserIds?: ReadonlySet<number> } = {},
): Promise<number> {
  const [bot, subscriberIds, { renderMarkdown }] = await Promise.all([
    ensureNotificationBot(deps, realm),
    listStreamSubscriberIds(deps, stream.stream_id, INLINE_RECIPIENT_LIMIT + 1),
    loadMarkdownRenderer(),
  ]);
  const rendered = renderMarkdown(content, {
    users: refs.users.map((u) => ({ id: u.user_id, full_name: u.full_name, email: u.delivery_email, is_active: u.is_active })),
    groups: [],
    streams: refs.streams.map((s) => ({ id: s.stream_id, name: s.name })),
    realmEmoji: [],
    realmUrl: realmUrl(realm, deps.config),
    realmId: realm.id,
  });
  const id = await allocateIds(deps, "message");
  await doSendMessage(deps, realm, bot, {
    id,
    addressee: {
      kind: "stream",
      stream,
      // As for any sender: a large stream's rows come from the expand job.
      subscriberIds: subscriberIds.length > INLINE_RECIPIENT_LIMIT ? undefined : new Set(subscriberIds),
      senderSubscribed: false,
    },
    topic,
    content,
    rendered,
    clientName: "Internal",
    senderReads: false,
    limitUnreadUserIds: options.limitUnreadUserIds,
  });
  return id;
}

/**
 * Sends a direct message from the Notification Bot to one user (Zulip's
 * `internal_send_private_message` from `NOTIFICATION_BOT`), with no
 * permission checks. Plain Markdown: no mentions or channel links resolved
 * (`<time:…>` and links render as usual).
 * @returns the message's ID
 */
export async function sendDirectNotice(deps: Deps, realm: RealmRecord, recipient: UserRecord, content: string): Promise<number> {
  const [bot, { renderMarkdown }] = await Promise.all([ensureNotificationBot(deps, realm), loadMarkdownRenderer()]);
  const rendered = renderMarkdown(content, {
    users: [],
    groups: [],
    streams: [],
    realmEmoji: [],
    realmUrl: realmUrl(realm, deps.config),
    realmId: realm.id,
  });
  const participants = [bot, recipient].sort((a, b) => a.user_id - b.user_id);
  const [recipientId, id] = await Promise.all([
    getOrCreateDirectRecipientId(deps, realm.id, participants.map((u) => u.user_id)),
    allocateIds(deps, "message"),
  ]);
  await doSendMessage(deps, realm, bot, {
    id,
    addressee: { kind: "private", recipientId, participants },
    topic: "",
    content,
    rendered,
    clientName: "Internal",
    senderReads: false,
  });
  return id;
}
