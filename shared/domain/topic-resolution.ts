import { RESOLVED_TOPIC_PREFIX } from "../narrow/terms.js";

/**
 * Topic resolution (spec "States and transitions": a topic renamed to
 * "✔ " + its name is resolved, by convention; Zulip's
 * `RESOLVED_TOPIC_PREFIX` handling in `zerver/lib/topic.py`).
 */

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
