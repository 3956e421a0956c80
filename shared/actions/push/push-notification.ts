import type { Deps } from "../../deps.js";
import type { JobPayload } from "../../deferred/jobs.js";
import { loadRealmGroups } from "../../access/user-group.js";
import type { MessageRecord } from "../../data/records/message.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserMessageRecord } from "../../data/records/user-message.js";
import { getStream } from "../../data/streams.js";
import { ACTIVE_PUSH_FLAG, messagesWithRows, updateUserMessageFlags } from "../../data/user-messages.js";
import { userAndRealm } from "../../data/users.js";
import { realmUrl } from "../../domain/email.js";
import { basePushPayload } from "../../domain/push-payload.js";
import { mentionedUserGroupOf, messagePushPayloads, personalMentionIds, type PushMessage } from "../../domain/push-message-payload.js";
import { recursiveMemberIds } from "../../domain/user-groups.js";
import { effectiveUserSettings } from "../../domain/user-settings.js";
import { readMessageUsers, withCurrentUsers } from "../../queries/messages/current-users.js";
import { sendPushToUserDevices } from "./send-to-devices.js";

/**
 * Runs a `push_notification` job: one message to one user's phones
 * (Zulip's `handle_push_notification`), queued by the
 * `message_notifications` decision (`shared/actions/notifications/push-decision.ts`).
 *
 * 1. Nothing when push notifications are not configured; nor for a user
 *    gone, deactivated or a bot, or with both `enable_offline_push_notifications`
 *    and `enable_online_push_notifications` off; nor for a deleted message
 *    or realm.
 * 2. The user's row: missing, `read` (a message read elsewhere before the
 *    job ran is not notified) or already carrying
 *    `active_mobile_push_notification` → nothing. Else the row is claimed
 *    by adding that flag with a conditional update: of duplicate
 *    deliveries of the job (SQS delivers at least once) exactly one wins,
 *    and the removal work knows the phone shows the message.
 * 3. The payloads (`shared/domain/push-message-payload.ts`) with the
 *    sender and participants as they are now, the stream's current name
 *    and, for a group mention, the smallest mentioned group the user is in.
 * 4. {@link sendPushToUserDevices}. When sending throws (the service down:
 *    the job is retried) the flag is cleared before rethrowing so the retry
 *    can claim it; when nothing reached a phone (no device, the plan
 *    refuses) the flag is cleared too.
 *
 * Round trips: (1) the user and realm (BatchGet) beside the message and
 * row (strongly consistent BatchGet); (2) the claim (UpdateItem) beside
 * the sender and participants (BatchGet), the stream (GetItem, stream
 * messages) and, for a group mention only, the realm's groups (two
 * Queries and a GetItem); (3) the send: the devices (Query), the realm's
 * UUID on its first use (UpdateItem), one HTTPS call; a clear adds an
 * UpdateItem.
 * @throws PushBouncerRetryLaterError and other send failures (the flag cleared first)
 */
export async function runPushNotification(deps: Deps, p: JobPayload<"push_notification">): Promise<void> {
  if (!deps.pushBouncer) return;
  const [{ user, realm }, { messages, rows }] = await Promise.all([
    userAndRealm(deps, p.realm_id, p.user_id),
    messagesWithRows(deps, p.user_id, [p.message_id]),
  ]);
  if (!user || !user.is_active || user.is_bot || !realm || realm.deactivated) return;
  const settings = effectiveUserSettings(user.settings);
  if (settings.enable_offline_push_notifications !== true && settings.enable_online_push_notifications !== true) return;
  const message = messages.get(p.message_id);
  const row = rows.get(p.message_id);
  if (!message || message.realm_id !== p.realm_id || !row) return;
  if (row.flags.includes("read") || row.flags.includes(ACTIVE_PUSH_FLAG)) return;

  const [claimed, pushMessage] = await Promise.all([claimRow(deps, row), describeMessage(deps, realm, message, p)]);
  if (!claimed) return;

  const payloads = messagePushPayloads(basePushPayload(realm, p.user_id, deps.config), pushMessage.message, pushMessage.context);
  let outcome;
  try {
    outcome = await sendPushToUserDevices(deps, realm, p.user_id, payloads);
  } catch (err) {
    await clearRowFlag(deps, claimed);
    throw err;
  }
  if (!outcome.sent) await clearRowFlag(deps, claimed);
}

/** Adds the flag unless the row is read or has it: the row after the write, or undefined when another job (or a read) came first. */
async function claimRow(deps: Deps, row: UserMessageRecord): Promise<UserMessageRecord | undefined> {
  const result = await updateUserMessageFlags(deps, row, (flags) =>
    flags.includes("read") || flags.includes(ACTIVE_PUSH_FLAG) ? flags : [...flags, ACTIVE_PUSH_FLAG],
  );
  return result?.changed ? result.row : undefined;
}

async function clearRowFlag(deps: Deps, row: UserMessageRecord): Promise<void> {
  await updateUserMessageFlags(deps, row, (flags) => flags.filter((f) => f !== ACTIVE_PUSH_FLAG));
}

/** The message as the notification describes it, and the context it needs. */
async function describeMessage(
  deps: Deps,
  realm: RealmRecord,
  stored: MessageRecord,
  p: JobPayload<"push_notification">,
): Promise<{ message: PushMessage; context: Parameters<typeof messagePushPayloads>[2] }> {
  const [users, stream, group] = await Promise.all([
    readMessageUsers(deps, realm.id, [stored]),
    stored.stream_id !== undefined ? getStream(deps, realm.id, stored.stream_id) : Promise.resolve(undefined),
    mentionedGroup(deps, stored, p),
  ]);
  const m = withCurrentUsers(stored, users, realm, deps.config);
  const avatar = m.sender_avatar_url.startsWith("/") ? `${realmUrl(realm, deps.config)}${m.sender_avatar_url}` : m.sender_avatar_url;
  const message: PushMessage = {
    id: m.id,
    recipient_type: m.recipient_type,
    stream_id: m.stream_id,
    topic: m.topic,
    dm_user_ids: m.dm_user_ids,
    participants: Array.isArray(m.display_recipient) ? m.display_recipient.map((r) => ({ id: r.id, full_name: r.full_name })) : undefined,
    sender_id: m.sender_id,
    sender_email: m.sender_email,
    sender_full_name: m.sender_full_name,
    sender_avatar_url: avatar,
    timestamp: m.timestamp,
    rendered_content: m.rendered_content,
  };
  const streamName = stream?.name ?? (typeof m.display_recipient === "string" ? m.display_recipient : undefined);
  return {
    message,
    context: { trigger: p.trigger, ...(streamName !== undefined ? { streamName } : {}), ...(group ? { mentionedUserGroup: group } : {}) },
  };
}

/**
 * The group whose mention notified the user (Zulip's `mentioned_user_group`
 * of the notification): only for the `mentioned` trigger of a message that
 * mentions groups, read from the realm's groups (the job may name it).
 */
async function mentionedGroup(
  deps: Deps,
  message: MessageRecord,
  p: JobPayload<"push_notification">,
): Promise<{ id: number; name: string } | undefined> {
  if (p.trigger !== "mentioned" || (message.mentioned_group_ids ?? []).length === 0) return undefined;
  const groups = await loadRealmGroups(deps, message.realm_id);
  const candidates = (p.mentioned_user_group_id !== undefined ? [p.mentioned_user_group_id] : message.mentioned_group_ids)
    .map((id) => groups.graph.get(id))
    .filter((g) => g !== undefined)
    .map((g) => ({ id: g.id, name: g.name, memberIds: recursiveMemberIds(groups.graph, g.id) }));
  // A group the job names is the decision's word; else a personal mention takes precedence over any group's.
  const personal = p.mentioned_user_group_id !== undefined ? new Set<number>() : personalMentionIds(message.rendered_content);
  return mentionedUserGroupOf(p.user_id, personal, candidates);
}
