import type { Deps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";

import { realmSettings } from "../../domain/realm-settings.js";
import { JsonableError } from "../../errors.js";
import { loadHtmlDiff } from "../../markdown/load.js";
import { accessMessage } from "../../access/message.js";

/**
 * `GET /messages/{message_id}/history` (https://zulip.com/api/get-message-history;
 * Zulip's `fill_edit_history_entries`): the message's versions, oldest
 * first — the original, then one entry per edit with the state after it
 * (`content`, `rendered_content`, `topic`, `stream`) and what changed
 * (`prev_content`, `prev_rendered_content`, `content_html_diff`,
 * `prev_topic`, `prev_stream`), with `timestamp` and `user_id`.
 * @throws InvalidMessageError; JsonableError `Message edit history is disabled in this organization`
 */
export async function fetchMessageHistory(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  messageId: number,
): Promise<{ message_history: Record<string, unknown>[] }> {
  if (!realmSettings(realm).allow_edit_history) {
    throw new JsonableError("Message edit history is disabled in this organization");
  }
  const { message } = await accessMessage(deps, realm, user, messageId);
  let content = message.content;
  let rendered = message.rendered_content;
  let topic = message.topic;
  let stream = message.stream_id;
  const entries: Record<string, unknown>[] = [];
  for (const edit of message.edit_history ?? []) {
    const e = edit as Record<string, unknown>;
    const out: Record<string, unknown> = {
      timestamp: e.timestamp,
      user_id: e.user_id ?? null,
      topic,
      ...(stream !== undefined ? { stream } : {}),
    };
    if (typeof e.prev_topic === "string") {
      topic = e.prev_topic;
      out.prev_topic = topic;
    }
    if (typeof e.prev_stream === "number") {
      stream = e.prev_stream;
      out.prev_stream = stream;
    }
    out.content = content;
    out.rendered_content = rendered;
    if (typeof e.prev_content === "string") {
      out.prev_content = e.prev_content;
      out.prev_rendered_content = e.prev_rendered_content;
      out.content_html_diff = (await loadHtmlDiff()).highlightHtmlDifferences(String(e.prev_rendered_content), rendered);
      content = e.prev_content;
      rendered = String(e.prev_rendered_content);
    }
    entries.push(out);
  }
  entries.push({
    content,
    rendered_content: rendered,
    timestamp: message.timestamp,
    topic,
    ...(stream !== undefined ? { stream } : {}),
    user_id: message.sender_id,
  });
  return { message_history: entries.reverse() };
}
