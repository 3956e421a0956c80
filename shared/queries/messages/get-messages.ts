import type { Deps } from "../../deps.js";
import { JsonableError } from "../../errors.js";
import type { MessageRecord } from "../../data/records/message.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserMessageRecord } from "../../data/records/user-message.js";
import type { UserRecord } from "../../data/records/user.js";
import { getMessagesByIds } from "../../data/messages.js";
import { queryIdRecords, type IdRange, type IdRecords } from "../../data/id-index.js";
import { getStreamsByIds } from "../../data/streams.js";
import { getUserMessages, wireFlags } from "../../data/user-messages.js";
import { messageMatchesNarrow } from "../../narrow/filter.js";
import { planDriver, unreadDriver, type Driver } from "../../narrow/plan.js";
import { resolveNarrow, type ResolvedNarrow } from "../narrow/resolve-narrow.js";
import { djangoEscape } from "../../html.js";
import { highlightHtml } from "../../narrow/search.js";
import type { NarrowTerm } from "../../narrow/terms.js";
import { applyWithOperator } from "../narrow/with-operator.js";
import { realmSettings } from "../../domain/realm-settings.js";
import { messageToWire } from "../../wire/message.js";
import { readMessageUsers, withCurrentUsers } from "./current-users.js";
import { fitPageToBudget } from "./page-budget.js";

/** Zulip's stand-in for "after the newest message" (`anchor=newest`). */
export const LARGER_THAN_MAX_MESSAGE_ID = 10_000_000_000_000_000;

/** Most messages one `GET /messages` may ask for (Zulip's `MAX_MESSAGES_PER_FETCH`). */
export const MAX_MESSAGES_PER_FETCH = 5000;

/**
 * Most driver items one direction of one request evaluates before giving
 * up with `found_oldest`/`found_newest` false (the client asks again from the
 * last message it got): bounds the cost of a narrow whose filters reject
 * almost everything the driver yields.
 */
export const MAX_ITEMS_EVALUATED = 10_000;

/** The largest DynamoDB `Limit` used for one page. */
const MAX_PAGE = 1000;

/** An anchor as requested: a message ID, or one the server computes. */
export type AnchorRequest = number | "first_unread";

/**
 * Zulip's `parse_anchor_value`: `newest` → {@link LARGER_THAN_MAX_MESSAGE_ID},
 * `oldest` → 0, `first_unread` (or `use_first_unread_anchor`) → computed;
 * numbers are clamped to `[0, LARGER_THAN_MAX_MESSAGE_ID]`.
 * @param raw the `anchor` parameter (JSON number or string), or undefined
 * @param near a `near` narrow operand, the anchor when none is given
 * @throws JsonableError `Missing 'anchor' argument.` / `Invalid anchor`
 */
export function parseAnchor(raw: string | number | undefined, useFirstUnread: boolean, near?: number): AnchorRequest {
  if (useFirstUnread) return "first_unread";
  if (raw === undefined) {
    if (near !== undefined) return Math.max(0, near);
    throw new JsonableError("Missing 'anchor' argument.");
  }
  if (raw === "oldest") return 0;
  if (raw === "newest") return LARGER_THAN_MAX_MESSAGE_ID;
  if (raw === "first_unread") return "first_unread";
  const n = typeof raw === "number" ? raw : /^-?\d+$/.test(raw.trim()) ? Number(raw.trim()) : Number.NaN;
  if (!Number.isInteger(n)) throw new JsonableError("Invalid anchor");
  return Math.min(Math.max(n, 0), LARGER_THAN_MAX_MESSAGE_ID);
}

/** A `GET /messages` request after parameter decoding (https://zulip.com/api/get-messages). */
export interface GetMessagesRequest {
  anchor: string | number | undefined;
  useFirstUnreadAnchor: boolean;
  numBefore: number;
  numAfter: number;
  includeAnchor: boolean;
  narrow: NarrowTerm[];
  applyMarkdown: boolean;
  clientGravatar: boolean;
}

/** The response of `GET /messages` (without `result` and `msg`). */
export type MessagesPage = {
  anchor: number;
  found_anchor: boolean;
  found_oldest: boolean;
  found_newest: boolean;
  /** Always false: no plan limits history. */
  history_limited: boolean;
  /** Wire messages, ascending by ID. */
  messages: Record<string, unknown>[];
};

interface Hit {
  message: MessageRecord;
  /** The viewer's stored flags, undefined for shared history without a row. */
  stored: string[] | undefined;
}

interface Collected {
  hits: Hit[];
  /** The driver's range was exhausted (so fewer hits than wanted means there are no more). */
  complete: boolean;
}

interface FetchContext {
  deps: Pick<Deps, "db" | "table">;
  realmId: number;
  viewerId: number;
  narrow: ResolvedNarrow;
}

/**
 * Fills in what a driver page lacks — the messages of UserMessage rows, the
 * viewer's rows for messages, both for postings (one BatchGet, two for
 * postings, in parallel) — then filters by visibility and narrow, keeping
 * driver order.
 */
async function hydrate(ctx: FetchContext, page: IdRecords): Promise<Hit[]> {
  let ids: number[];
  let messages: Map<number, MessageRecord>;
  let ums: Map<number, UserMessageRecord>;
  if (page.kind === "user_message") {
    ids = page.rows.map((r) => r.message_id);
    ums = new Map(page.rows.map((r) => [r.message_id, r]));
    messages = await getMessagesByIds(ctx.deps, ids);
  } else if (page.kind === "message") {
    ids = page.messages.map((m) => m.id);
    messages = new Map(page.messages.map((m) => [m.id, m]));
    ums = await getUserMessages(ctx.deps, ctx.viewerId, ids);
  } else {
    ids = page.messageIds;
    [messages, ums] = await Promise.all([getMessagesByIds(ctx.deps, ids), getUserMessages(ctx.deps, ctx.viewerId, ids)]);
  }
  const hits: Hit[] = [];
  for (const id of ids) {
    const message = messages.get(id);
    if (!message || message.realm_id !== ctx.realmId) continue; // a row whose message is gone
    const stored = ums.get(id)?.flags;
    if (stored === undefined && !ctx.narrow.includeHistory) continue;
    if (!messageMatchesNarrow(ctx.narrow.terms, message, stored, ctx.viewerId)) continue;
    hits.push({ message, stored });
  }
  return hits;
}

/** How many items a driver page holds. */
function pageSize(page: IdRecords): number {
  return page.kind === "message" ? page.messages.length : page.kind === "user_message" ? page.rows.length : page.messageIds.length;
}

/**
 * Collects up to `want` matching messages from a driver within an ID range,
 * in one direction. Exact drivers ask DynamoDB for exactly `want` items (one
 * Query + one BatchGet), and so do dense ones (a stream's messages the
 * viewer is expected to have rows for); other filtered ones start at three
 * times that; pages grow fourfold until filled, exhausted or
 * {@link MAX_ITEMS_EVALUATED}.
 */
async function collect(ctx: FetchContext, driver: Driver, range: IdRange, descending: boolean, want: number): Promise<Collected> {
  if (want <= 0) return { hits: [], complete: true };
  if (driver.source === "none") return { hits: [], complete: true };
  if (driver.source === "ids") {
    const ids = driver.ids.filter((id) => (range.gte === undefined || id >= range.gte) && (range.lte === undefined || id <= range.lte));
    // Message and row fetched together, like postings.
    const hits = ids.length ? await hydrate(ctx, { kind: "posting", messageIds: ids }) : [];
    return { hits: hits.slice(0, want), complete: true };
  }
  const hits: Hit[] = [];
  let limit = driver.exact ? want : driver.dense ? Math.min(want, MAX_PAGE) : Math.min(Math.max(want * 3, 20), MAX_PAGE);
  let start: Record<string, unknown> | undefined;
  let evaluated = 0;
  for (;;) {
    const page = await queryIdRecords(ctx.deps, driver.where, range, descending, limit, start);
    evaluated += pageSize(page);
    hits.push(...(await hydrate(ctx, page)));
    if (hits.length >= want) return { hits: hits.slice(0, want), complete: !page.next };
    if (!page.next) return { hits, complete: true };
    if (evaluated >= MAX_ITEMS_EVALUATED) return { hits, complete: false };
    start = page.next;
    limit = Math.min(Math.max(limit * 4, want - hits.length), MAX_PAGE);
  }
}

/** The oldest unread message matching the narrow, or {@link LARGER_THAN_MAX_MESSAGE_ID}. */
async function firstUnreadAnchor(ctx: FetchContext): Promise<number> {
  // Zulip's find_first_unread_anchor: the narrow plus "is:unread" (which
  // rules out shared history: messages without a row count as read).
  const narrow: ResolvedNarrow = {
    ...ctx.narrow,
    terms: [...ctx.narrow.terms, { kind: "is", what: "unread", negated: false }],
    includeHistory: false,
  };
  const unreadCtx = { ...ctx, narrow };
  // Driven by the sparse unread index whatever the narrow: a user's unread
  // messages are few next to their history, which a stream or conversation
  // index would page through from its oldest (read) message.
  const idTerm = narrow.terms.find((t) => t.kind === "id" && !t.negated);
  const driver = idTerm ? planDriver(narrow, ctx.viewerId, ctx.realmId) : unreadDriver(ctx.viewerId);
  const found = await collect(unreadCtx, driver, {}, false, 1);
  return found.hits[0]?.message.id ?? LARGER_THAN_MAX_MESSAGE_ID;
}

/**
 * The current names of the streams of a page's messages (message items
 * keep the name a stream had at send time; a renamed stream's older
 * messages must show the new one, as Zulip's do). Streams the narrow
 * already resolved cost nothing; the others one BatchGet.
 * @returns stream ID → current name
 */
async function currentStreamNames(
  deps: Deps,
  realmId: number,
  narrow: ResolvedNarrow,
  messages: MessageRecord[],
): Promise<Map<number, string>> {
  const names = new Map<number, string>();
  for (const t of narrow.terms) if (t.kind === "stream") names.set(t.stream.stream_id, t.stream.name);
  const missing = [...new Set(messages.flatMap((m) => (m.stream_id !== undefined && !names.has(m.stream_id) ? [m.stream_id] : [])))];
  if (missing.length > 0) {
    for (const [id, stream] of await getStreamsByIds(deps, realmId, missing)) names.set(id, stream.name);
  }
  return names;
}

/**
 * `GET /messages` (https://zulip.com/api/get-messages; Zulip's
 * `get_messages_backend` in `zerver/views/message_fetch.py`):
 * messages around an anchor matching a narrow, as the viewer sees them.
 *
 * Cost: the narrow's lookups (0–2 round trips, in parallel), the
 * `first_unread` anchor if asked (2), then per direction — both directions
 * in parallel — one Query of the driver partition and one BatchGet (of the
 * messages for UserMessage drivers, of the viewer's rows for message
 * drivers), then, in one parallel round, the current names of streams the
 * narrow did not resolve (one BatchGet, see `currentStreamNames`) and the
 * current senders and DM participants (one BatchGet, see
 * `readMessageUsers`). Single-operator narrows (stream, topic, dm,
 * is:starred, sender, home) need one page for 100 messages: at most 5
 * round trips after authentication, independent of history size
 * (docs/data-model.md).
 *
 * The page is shortened to fit `RESPONSE_BYTE_BUDGET` (see
 * `fitPageToBudget`): the messages farthest from the anchor go first, and
 * `found_oldest`/`found_newest` are false on a side that lost any.
 *
 * @returns the response fields: `anchor`, `found_anchor`, `found_oldest`,
 *   `found_newest`, `history_limited` (always false: no plan limits), `messages`
 * @throws JsonableError `Too many messages requested (maximum 5000).`, anchor errors
 * @throws BadNarrowOperatorError for unknown operands
 */
export async function fetchMessages(
  deps: Deps,
  realm: RealmRecord,
  viewer: UserRecord,
  req: GetMessagesRequest,
): Promise<MessagesPage> {
  if (req.numBefore + req.numAfter > MAX_MESSAGES_PER_FETCH) {
    throw new JsonableError(`Too many messages requested (maximum ${MAX_MESSAGES_PER_FETCH}).`);
  }
  if (req.numBefore > 0 && req.numAfter > 0 && !req.includeAnchor) {
    throw new JsonableError("The anchor can only be excluded at an end of the range");
  }
  // A missing anchor is refused before any read; `near` may stand in for it.
  const nearTerm = req.narrow.find((t) => t.operator === "near");
  const nearValue = nearTerm && /^\d+$/.test(String(nearTerm.operand)) ? Number(nearTerm.operand) : undefined;
  const requested = parseAnchor(req.anchor, req.useFirstUnreadAnchor, nearValue);

  const narrow = await resolveNarrow(deps, realm, viewer, await applyWithOperator(deps, realm, viewer, req.narrow));
  const ctx: FetchContext = { deps, realmId: realm.id, viewerId: viewer.user_id, narrow };
  const anchor = requested === "first_unread" ? await firstUnreadAnchor(ctx) : requested;
  const driver = planDriver(narrow, viewer.user_id, realm.id);

  const anchoredLeft = anchor === 0;
  const anchoredRight = anchor >= LARGER_THAN_MAX_MESSAGE_ID;
  const wantBefore = anchoredLeft ? 0 : req.numBefore;
  // The after side starts at the anchor itself when it may be included; with
  // num_after = 0 it only looks at the anchor.
  const wantAfter = anchoredRight ? 0 : req.numAfter + (req.includeAnchor ? 1 : 0);
  const afterRange: IdRange = {
    gte: req.includeAnchor ? anchor : anchor + 1,
    ...(req.numAfter === 0 ? { lte: anchor } : {}),
  };
  const [before, after] = await Promise.all([
    collect(ctx, driver, anchoredRight ? {} : { lte: anchor - 1 }, true, wantBefore),
    collect(ctx, driver, afterRange, false, wantAfter),
  ]);

  const beforeHits = before.hits.slice(0, req.numBefore).reverse();
  const anchorHit = req.includeAnchor && !anchoredRight ? after.hits.find((h) => h.message.id === anchor) : undefined;
  const afterHits = after.hits.filter((h) => h.message.id > anchor).slice(0, req.numAfter);
  const all = [...beforeHits, ...(anchorHit ? [anchorHit] : []), ...afterHits];

  const search = narrow.terms.find((t) => t.kind === "search" && !t.negated);
  const searchWords = search && search.kind === "search" ? search.terms : undefined;
  const allowEditHistory = realmSettings(realm).allow_edit_history === true;
  const records = all.map((h) => h.message);
  const [names, users] = await Promise.all([
    currentStreamNames(deps, realm.id, narrow, records),
    readMessageUsers(deps, realm.id, records),
  ]);
  const current = (m: MessageRecord) => {
    const hydrated = withCurrentUsers(m, users, realm, deps.config);
    return names.has(m.stream_id!) ? { ...hydrated, display_recipient: names.get(m.stream_id!)! } : hydrated;
  };
  const messages = all.map(({ message, stored }) =>
    messageToWire(current(message), {
      applyMarkdown: req.applyMarkdown,
      clientGravatar: req.clientGravatar,
      allowEditHistory,
      flags: stored ? wireFlags(stored) : ["read", "historical"],
      match: searchWords
        ? {
            match_content: highlightHtml(message.rendered_content, searchWords),
            match_subject: highlightHtml(djangoEscape(message.topic), searchWords),
          }
        : undefined,
    }),
  );

  const flags = {
    anchor,
    found_anchor: anchorHit !== undefined,
    found_oldest: anchoredLeft || (req.numBefore > 0 && before.complete && beforeHits.length < req.numBefore),
    found_newest: anchoredRight || (req.numAfter > 0 && after.complete && afterHits.length < req.numAfter),
    history_limited: false,
  };
  // A page too large for one response loses its far ends; the flags then say more exist on that side.
  const anchorAt = anchorHit ? beforeHits.length : -1;
  const fitted = fitPageToBudget(
    { before: messages.slice(0, beforeHits.length), anchor: messages[anchorAt], after: messages.slice(beforeHits.length + (anchorHit ? 1 : 0)) },
    { result: "success", msg: "", ...flags, messages: [] },
    deps.config.RESPONSE_BYTE_BUDGET,
  );
  return {
    ...flags,
    found_oldest: flags.found_oldest && !fitted.droppedBefore,
    found_newest: flags.found_newest && !fitted.droppedAfter,
    messages: [...fitted.before, ...(fitted.anchor ? [fitted.anchor] : []), ...fitted.after],
  };
}
