import type { Deps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";
import { messagesWithRows } from "../../data/user-messages.js";
import { djangoEscape } from "../../html.js";
import { messageMatchesNarrow } from "../../narrow/filter.js";
import { highlightHtml } from "../../narrow/search.js";
import type { NarrowTerm } from "../../narrow/terms.js";
import { resolveNarrow } from "../narrow/resolve-narrow.js";
import { applyWithOperator } from "../narrow/with-operator.js";

/** The search rendering of one matching message, as `GET /messages` gives it. */
export interface NarrowMatch {
  match_content: string;
  match_subject: string;
}

/**
 * `GET /messages/matches_narrow`
 * (https://zulip.com/api/check-messages-match-narrow; Zulip's
 * `messages_in_narrow_backend`): which of the given messages match a
 * narrow, with the fields `GET /messages` adds on a search narrow.
 *
 * Only messages the viewer holds a UserMessage row for are considered, as
 * Zulip's query joins on it (clients ask about messages they just received);
 * others, unknown IDs and other organizations' messages are left out, not
 * refused. Each message is checked against every term with the filter of
 * `GET /messages` (`messageMatchesNarrow`). With a positive `search` term
 * the search words are wrapped in `<span class="highlight">` in the
 * rendered content and in the HTML-escaped topic; without one,
 * `match_content` is the rendered content and `match_subject` the escaped
 * topic, as Zulip's are.
 *
 * Cost: the narrow's lookups (0–2 rounds, as `GET /messages`), then one
 * strongly consistent BatchGet of the messages with the viewer's rows (one
 * call per 50 IDs, in parallel).
 * @returns message ID → its match fields (matching messages only)
 * @throws BadNarrowOperatorError for unknown streams, users and operands
 */
export async function fetchNarrowMatches(
  deps: Deps,
  realm: RealmRecord,
  viewer: UserRecord,
  messageIds: number[],
  terms: NarrowTerm[],
): Promise<Record<string, NarrowMatch>> {
  const narrow = await resolveNarrow(deps, realm, viewer, await applyWithOperator(deps, realm, viewer, terms));
  const ids = [...new Set(messageIds)];
  const { messages, rows } = ids.length ? await messagesWithRows(deps, viewer.user_id, ids) : { messages: new Map(), rows: new Map() };
  const search = narrow.terms.find((t) => t.kind === "search" && !t.negated);
  const words = search && search.kind === "search" ? search.terms : [];
  const out: Record<string, NarrowMatch> = {};
  for (const id of ids) {
    const message = messages.get(id);
    const row = rows.get(id);
    if (!message || !row || message.realm_id !== realm.id) continue;
    if (!messageMatchesNarrow(narrow.terms, message, row.flags, viewer.user_id)) continue;
    out[String(id)] = {
      match_content: highlightHtml(message.rendered_content, words),
      match_subject: highlightHtml(djangoEscape(message.topic), words),
    };
  }
  return out;
}
