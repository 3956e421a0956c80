import type { Deps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";
import { messagesByTopic } from "../../data/messages.js";
import { messagesWithRows } from "../../data/user-messages.js";
import { isRealmAdmin } from "../../domain/roles.js";
import { InvalidChannelIdError, OrganizationAdministratorRequiredError } from "../../errors.js";
import { accessStream, canReadStreamHistory } from "../../access/stream.js";
import { doDeleteMessages } from "./delete-messages.js";

/**
 * `POST /streams/{stream_id}/delete_topic` (https://zulip.com/api/delete-topic;
 * Zulip's `delete_in_topic`).
 *
 * Who: organization administrators (and owners) only, on a stream they may
 * access as `access_stream_by_id` allows (a private stream needs a
 * subscription, administrators included). Which messages: the topic's
 * (compared case-insensitively), all of them when the administrator may
 * read the stream's history, else only those they received (hold a row
 * for), as Zulip's `bulk_access_stream_messages_query` limits them.
 *
 * How: newest first, in batches of `DELETE_TOPIC_BATCH_SIZE` messages
 * (100), each batch through the deletion of `DELETE /messages/{id}`
 * (`doDeleteMessages`: items, rows, recipients items, reactions with their
 * items, attachment claims, search postings; one bulk `delete_message`
 * event per batch). A batch after the first starts only within
 * `DELETE_TOPIC_TIME_BUDGET_MS` of the request's start; past it the answer
 * is `complete: false` and the client repeats the request (Zulip's
 * behaviour since feature level 211). The topic index is eventually
 * consistent, so each batch's messages are re-read strongly consistently
 * (with the administrator's rows) and ones already gone are skipped; the
 * next batch starts below the lowest ID seen, so stale entries never loop.
 *
 * Round trips per batch: the topic Query (1), the messages with rows (1),
 * the deletion (see `doDeleteMessages`: about 5 for rows ≤ 100 per message).
 * @returns `{ complete }`: false when messages may remain
 * @throws OrganizationAdministratorRequiredError (400 `Must be an organization administrator`);
 *   InvalidChannelIdError (400 `Invalid channel ID`) for a missing, archived or inaccessible stream
 */
export async function checkDeleteTopic(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  streamId: number,
  topic: string,
): Promise<{ complete: boolean }> {
  if (!isRealmAdmin(user)) throw new OrganizationAdministratorRequiredError();
  const { stream, sub } = await accessStream(deps, user, realm, streamId, { error: () => new InvalidChannelIdError() });
  const wholeHistory = canReadStreamHistory(user, stream, sub);
  const started = deps.clock.now();
  const batchSize = deps.config.DELETE_TOPIC_BATCH_SIZE;
  let below: number | undefined;
  for (let batch = 0; ; batch++) {
    if (batch > 0 && deps.clock.now() - started >= deps.config.DELETE_TOPIC_TIME_BUDGET_MS) return { complete: false };
    const listed = await messagesByTopic(deps, streamId, topic, below === undefined ? {} : { lte: below }, {
      descending: true,
      max: batchSize,
      pageSize: batchSize,
      projection: ["id"],
    });
    if (listed.length === 0) return { complete: true };
    const ids = listed.map((m) => m.id);
    below = Math.min(...ids) - 1;
    const { messages, rows } = await messagesWithRows(deps, user.user_id, ids);
    const doomed = ids.flatMap((id) => {
      const m = messages.get(id);
      // Re-checked on the message itself: the index may still list a message moved out of the topic.
      const here = m && m.realm_id === realm.id && m.stream_id === streamId && m.topic.toLowerCase() === topic.toLowerCase();
      return here && (wholeHistory || rows.has(id)) ? [m] : [];
    });
    await doDeleteMessages(deps, realm, doomed);
    if (below < 1) return { complete: true };
  }
}
