import type { Deps } from "../../deps.js";
import { messagesByTopic } from "../../data/messages.js";

/**
 * Topic participants (Zulip's `participants_for_topic` in
 * `zerver/lib/topic.py`): the users who sent a message in a stream topic or
 * reacted to one of its messages. Zulip uses them for `@**topic**`
 * (`topic_wildcard_mentioned` goes to participants only) and for topic
 * resolution notices (unread only for participants).
 */

/** The attributes of a message item that make its participants: its sender and its reactions' users. */
export interface ParticipationFields {
  sender_id?: unknown;
  reactions?: unknown;
}

/**
 * Adds the participants of one message (its sender, every user who reacted)
 * to `into`. Accepts a raw item or a `MessageRecord`; attributes that are
 * missing or malformed add nothing.
 * @returns `into`
 */
export function addParticipants(into: Set<number>, message: ParticipationFields): Set<number> {
  if (message.sender_id !== undefined && message.sender_id !== null) into.add(Number(message.sender_id));
  // The item's `reactions` map (docs/data-model.md "Reactions"): its values are the reactions.
  if (message.reactions !== null && typeof message.reactions === "object") {
    for (const r of Object.values(message.reactions) as { user_id?: unknown }[]) {
      if (r && r.user_id !== undefined && r.user_id !== null) into.add(Number(r.user_id));
    }
  }
  return into;
}

/**
 * Reads a topic's participants: every message of the topic
 * (`messagesByTopic`; names compare case-insensitively like Zulip's
 * `subject__iexact`), projected to `sender_id` and `reactions`.
 *
 * Cost: O(topic size) — one Query per 1 MB page of projected items
 * (roughly a few thousand messages a page without reactions), pages read
 * one after the other. Zulip's own docstring warns the same ("expensive for
 * large numbers of messages in the topic"), which is why callers only ask
 * when the rendered content really has a topic wildcard (or already hold
 * the topic's items, see {@link addParticipants}).
 *
 * The index is eventually consistent: a message written a moment ago may
 * be missing (its sender then is not counted yet).
 *
 * @param streamId the topic's stream
 * @param topic the topic name, as stored
 * @returns user IDs (senders and reactors), possibly including deactivated users and bots
 */
export async function topicParticipantIds(
  deps: Pick<Deps, "db" | "table">,
  streamId: number,
  topic: string,
): Promise<Set<number>> {
  const messages = await messagesByTopic(deps, streamId, topic, {}, {
    projection: ["sender_id", "reactions"],
    pageSize: Number.POSITIVE_INFINITY,
  });
  const participants = new Set<number>();
  for (const message of messages) addParticipants(participants, message);
  return participants;
}
