/**
 * Topic resolution: a topic renamed to "✔ " + its name is resolved, by
 * convention (https://zulip.com/help/resolve-a-topic; Zulip's
 * `RESOLVED_TOPIC_PREFIX` handling in `zerver/lib/topic.py`).
 */

/** Prefix of resolved topics (Zulip's RESOLVED_TOPIC_PREFIX: a check mark and a space). */
export const RESOLVED_TOPIC_PREFIX = "✔ ";

/** Whether a topic name is resolved. */
export function isResolvedTopic(topic: string): boolean {
  return topic.startsWith(RESOLVED_TOPIC_PREFIX);
}

/** The topic without any leading resolution marks (Zulip strips repeated "✔ "). */
export function unresolvedName(topic: string): string {
  let t = topic;
  while (t.startsWith(RESOLVED_TOPIC_PREFIX)) t = t.slice(RESOLVED_TOPIC_PREFIX.length);
  return t;
}

/**
 * What a rename means for resolution: `resolved` / `unresolved` when it
 * only adds or removes the prefix of the same name, else undefined
 * (an ordinary rename).
 */
export function resolutionChange(oldTopic: string, newTopic: string): "resolved" | "unresolved" | undefined {
  if (unresolvedName(oldTopic) !== unresolvedName(newTopic)) return undefined;
  const was = isResolvedTopic(oldTopic);
  const is = isResolvedTopic(newTopic);
  if (!was && is) return "resolved";
  if (was && !is) return "unresolved";
  return undefined;
}

/**
 * How long after a resolution notice the opposite change deletes that
 * notice instead of posting a new one (Zulip's
 * `RESOLVE_TOPIC_UNDO_GRACE_PERIOD_SECONDS`, `zproject/default_settings.py`;
 * 60 s in production). Seconds; a notice exactly this old is still deleted.
 */
export const RESOLVE_TOPIC_UNDO_GRACE_PERIOD_SECONDS = 60;

/**
 * The Notification Bot's notice for a resolution change (Zulip's
 * `maybe_send_resolve_topic_notifications`): "@_**Name|id** has marked this
 * topic as resolved." / "… as unresolved.", the actor silently mentioned.
 */
export function resolutionNoticeText(actor: { full_name: string; user_id: number }, change: "resolved" | "unresolved"): string {
  return `@_**${actor.full_name}|${actor.user_id}** has marked this topic as ${change}.`;
}

const RESOLUTION_NOTICE = /^@_\*\*[^\n]*\|\d+\*\* has marked this topic as (?:un)?resolved\.$/;

/**
 * Whether a message's content is a resolution notice (stands in for Zulip's
 * `Message.MessageType.RESOLVE_TOPIC_NOTIFICATION`, which we do not store:
 * callers also check that the Notification Bot sent it).
 */
export function isResolutionNoticeContent(content: string): boolean {
  return RESOLUTION_NOTICE.test(content);
}
