import type { Deps } from "../../deps.js";
import { getMessagesByIds } from "../../data/messages.js";
import { getPendingMissedMessages, takePendingMissedMessages, type PendingMissedMessages } from "../../data/missed-messages.js";
import { getRealm } from "../../data/realms.js";
import type { MessageRecord } from "../../data/records/message.js";
import { getStreamsByIds } from "../../data/streams.js";
import { getUserMessages } from "../../data/user-messages.js";
import { isSystemBot, userById } from "../../data/users.js";
import { SQS_MAX_DELAY_SECONDS } from "../../deferred/deferred-work.js";
import type { JobPayload } from "../../deferred/jobs.js";
import { realmUrl } from "../../domain/email.js";
import { realmSettings } from "../../domain/realm-settings.js";
import { effectiveUserSettings } from "../../domain/user-settings.js";
import { queueEmails } from "../../mail/outgoing.js";
import { missedMessageEmailsJob } from "./message-notifications.js";
import { missedMessageEmail, type MissedConversation } from "./missed-message-email.js";

/**
 * The end of a user's missed-message batch (Zulip's
 * `handle_missedmessage_emails`): the `missed_message_emails` job takes the
 * user's pending item, keeps the messages that still exist and that the
 * user has not read, and mails one `missed_message` email per conversation
 * (a stream's topic, a one-to-one or a group conversation), least recently
 * active first.
 */

/** Zulip's `realm_name_in_email_notifications_policy` value that always names the organization. */
const REALM_NAME_ALWAYS = 2;

/** Tries at taking a batch that messages keep joining before SQS retries the job. */
const TAKE_ATTEMPTS = 5;

/**
 * Runs a `missed_message_emails` job: reads the user's pending batch (none:
 * a duplicate delivery, done); not yet due (a period beyond SQS's 15-minute
 * delay, or an early delivery) → the job enqueues itself again for the rest;
 * due → takes the batch at the version it read (a message that joined
 * meanwhile makes it read again) and mails it ({@link doSendMissedMessageEmails}).
 * A job taking the batch twice is impossible: the take is a conditional delete.
 * @throws Error when messages kept joining through {@link TAKE_ATTEMPTS} reads (SQS retries)
 */
export async function runMissedMessageEmails(deps: Deps, p: JobPayload<"missed_message_emails">): Promise<void> {
  for (let attempt = 0; attempt < TAKE_ATTEMPTS; attempt++) {
    const pending = await getPendingMissedMessages(deps, p.user_id);
    if (!pending) return;
    const nowSeconds = deps.clock.now() / 1000;
    if (pending.due_at > nowSeconds + 1) {
      const delaySeconds = Math.min(SQS_MAX_DELAY_SECONDS, Math.ceil(pending.due_at - nowSeconds));
      await deps.deferred.enqueue([missedMessageEmailsJob(p.realm_id, p.user_id)], { delaySeconds });
      return;
    }
    if (await takePendingMissedMessages(deps, p.user_id, pending.version)) {
      await doSendMissedMessageEmails(deps, pending);
      return;
    }
  }
  throw new Error(`missed-message batch of user ${p.user_id} kept changing`);
}

/** The conversation a message belongs to in an email (Zulip's buckets: a stream's topic, case-insensitively; a direct conversation). */
function conversationKey(m: MessageRecord): string {
  return m.recipient_type === "stream" ? `s${m.recipient_id}:${m.topic.toLowerCase()}` : `p${m.recipient_id}`;
}

/**
 * Mails a taken batch: the user (active, not a bot) and the organization
 * (not deactivated), the user's rows of the batch's messages (unread only)
 * and the messages (deleted ones are gone), the streams' current names;
 * then one email per conversation, queued as `send_email` jobs in one
 * SendMessageBatch (≤ 10 conversations per call).
 *
 * Round trips: user and realm (GetItem each), rows and messages (BatchGet
 * each, per 100), streams (BatchGet), the emails' enqueue.
 */
export async function doSendMissedMessageEmails(deps: Deps, batch: PendingMissedMessages): Promise<void> {
  const [user, realm] = await Promise.all([userById(deps, batch.realm_id, batch.user_id), getRealm(deps, batch.realm_id)]);
  if (!user || !user.is_active || user.is_bot || isSystemBot(user) || !realm || realm.deactivated) return;
  const ids = [...batch.messages.keys()];
  const [rows, messages] = await Promise.all([getUserMessages(deps, user.user_id, ids), getMessagesByIds(deps, ids)]);
  const unread = [...messages.values()]
    .filter((m) => {
      const row = rows.get(m.id);
      return row !== undefined && !row.flags.includes("read");
    })
    .sort((a, b) => a.id - b.id);
  if (unread.length === 0) return;

  const conversations = new Map<string, MissedConversation>();
  for (const m of unread) {
    const key = conversationKey(m);
    let conv = conversations.get(key);
    if (!conv) {
      const kind = m.recipient_type === "stream" ? "stream" : (m.dm_user_ids?.length ?? 0) > 2 ? "group" : "private";
      conv = { kind, messages: [], triggers: new Map() };
      conversations.set(key, conv);
    }
    conv.messages.push(m);
    conv.triggers.set(m.id, batch.messages.get(m.id) ?? "");
  }
  const streamIds = [...new Set(unread.flatMap((m) => (m.stream_id !== undefined ? [m.stream_id] : [])))];
  const streams = streamIds.length > 0 ? await getStreamsByIds(deps, realm.id, streamIds) : new Map();
  for (const conv of conversations.values()) {
    const streamId = conv.messages[0]!.stream_id;
    const stream = streamId !== undefined ? streams.get(streamId) : undefined;
    if (stream) conv.stream = { stream_id: stream.stream_id, name: stream.name };
  }

  const own = effectiveUserSettings(user.settings);
  const to = {
    user_id: user.user_id,
    delivery_email: user.delivery_email,
    full_name: user.full_name,
    includeContent:
      own.message_content_in_email_notifications === true &&
      realmSettings(realm).message_content_allowed_in_email_notifications === true,
    // "Automatic" names the organization for people with accounts in several; a deploy serves its organizations under one
    // address book per realm, which this job does not search, so only "always" names it.
    includeRealmName: own.realm_name_in_email_notifications_policy === REALM_NAME_ALWAYS,
  };
  const site = { id: realm.id, name: realm.name, url: realmUrl(realm, deps.config) };
  // Least recently active conversation first, as Zulip sends them.
  const ordered = [...conversations.values()].sort((a, b) => a.messages.at(-1)!.id - b.messages.at(-1)!.id);
  await queueEmails(deps, ordered.map((conv) => missedMessageEmail(site, to, conv)));
}
