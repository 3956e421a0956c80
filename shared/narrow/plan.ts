import type { IdSource } from "../data/id-index.js";
import type { ResolvedNarrow, ResolvedTerm } from "./types.js";
import { drivingTerm } from "./search.js";

/**
 * Query planning for `GET /messages` (pure): which ID-sorted partition to
 * page through — the "driver" — for a resolved narrow. Every candidate the
 * driver yields is then checked against the whole narrow and against
 * visibility, so the driver only decides cost, never correctness.
 *
 * Drivers, most selective first (docs/data-model.md "Reading messages"),
 * named by the `IdSource` they page through (`shared/data/id-index.ts`):
 * `id` → the message itself; `search` (without stream+topic) → the rarest
 * term's postings; stream+topic → the topic's messages; `dm` → the
 * viewer's UserMessages of the conversation's recipient; stream → the
 * stream's messages; `is:starred`, `is:mentioned`, `is:unread`, `is:dm` →
 * the viewer's sparse flag sources; `dm-including` → `is:dm`; `sender` →
 * the sender's messages; `streams:public` → the realm's messages; anything
 * else → the viewer's whole history (their UserMessages).
 *
 * A stream or topic narrow without shared history (the viewer may not read
 * the stream's history, or an `is:` term needs their flags) pages through
 * the stream's or topic's messages and keeps those the viewer has a row
 * for (one BatchGet of their rows per page): UserMessage rows of stream
 * messages name no stream, so that moving messages rewrites no row
 * (docs/data-model.md "Moving messages"). With `is:starred`,
 * `is:mentioned` or `is:unread` the viewer's sparse flag source drives
 * instead: a user's flagged rows are few next to a stream's history.
 */

export type Driver =
  /** The narrow matches nothing (a conversation that never existed). */
  | { source: "none" }
  /** Exactly these message IDs (the `id` operator). */
  | { source: "ids"; ids: number[] }
  | {
      source: "index";
      /** The ID-sorted partition the driver pages through. */
      where: IdSource;
      /** What the partition's items are: messages, the viewer's UserMessages, or search postings. */
      items: "message" | "user_message" | "posting";
      /**
       * True when every candidate is a result: the driver enforces every
       * term and visibility, so a page of N items gives N messages and the
       * query can ask for exactly what it needs.
       */
      exact: boolean;
      /**
       * Not exact, but nearly every candidate is expected to be a result (a
       * stream's messages the viewer is expected to have rows for): the
       * first page asks for what is needed, not three times that.
       */
      dense?: boolean;
    };

/**
 * Chooses the driver for a resolved narrow.
 * @param viewerId the user whose UserMessages are read
 * @param realmId the viewer's realm (search postings and the realm index are per realm)
 */
export function planDriver(narrow: ResolvedNarrow, viewerId: number, realmId: number): Driver {
  const positive = narrow.terms.filter((t) => !t.negated && t.kind !== "noop");
  const others = (...covered: ResolvedTerm[]) => narrow.terms.filter((t) => t.kind !== "noop" && !covered.includes(t));
  const find = <K extends ResolvedTerm["kind"]>(kind: K, pred: (t: Extract<ResolvedTerm, { kind: K }>) => boolean = () => true) =>
    positive.find((t): t is Extract<ResolvedTerm, { kind: K }> => t.kind === kind && pred(t as Extract<ResolvedTerm, { kind: K }>));

  const umDriver = (where: IdSource, ...covered: ResolvedTerm[]): Driver => ({
    source: "index",
    where,
    items: "user_message",
    exact: others(...covered).length === 0,
  });
  const messageDriver = (where: IdSource, ...covered: ResolvedTerm[]): Driver => {
    const rest = others(...covered).length;
    return {
      source: "index",
      where,
      items: "message",
      // Without shared history, each candidate still needs the viewer's row.
      exact: narrow.includeHistory && rest === 0,
      ...(!narrow.includeHistory && rest === 0 ? { dense: true } : {}),
    };
  };

  const id = find("id");
  if (id) return { source: "ids", ids: [id.id] };

  const stream = find("stream");
  const topic = find("topic");
  const search = find("search");
  if (search && !(stream && topic)) {
    const term = drivingTerm(search.terms);
    if (term === undefined) return { source: "none" };
    return { source: "index", where: { of: "search-postings", realmId, term }, items: "posting", exact: false };
  }
  const flagged = narrow.includeHistory ? undefined : sparseFlagDriver(viewerId, find);
  if (stream && topic) {
    if (flagged) return flagged;
    return messageDriver({ of: "topic-messages", streamId: stream.stream.stream_id, topic: topic.topic }, stream, topic);
  }
  const dm = find("dm");
  if (dm) {
    if (dm.recipientId === undefined) return { source: "none" };
    return umDriver({ of: "recipient-user-messages", userId: viewerId, recipientId: dm.recipientId }, dm);
  }
  if (stream) {
    if (flagged) return flagged;
    return messageDriver({ of: "stream-messages", streamId: stream.stream.stream_id }, stream);
  }
  const starred = find("is", (t) => t.what === "starred");
  if (starred) return umDriver({ of: "starred-user-messages", userId: viewerId }, starred);
  const mentioned = find("is", (t) => t.what === "mentioned");
  if (mentioned) return umDriver({ of: "mentioned-user-messages", userId: viewerId }, mentioned);
  const unread = find("is", (t) => t.what === "unread");
  if (unread) return umDriver({ of: "unread-user-messages", userId: viewerId }, unread);
  const isDm = find("is", (t) => t.what === "dm");
  if (isDm) return umDriver({ of: "private-user-messages", userId: viewerId }, isDm);
  const including = find("dm-including");
  if (including) return umDriver({ of: "private-user-messages", userId: viewerId });
  const sender = find("sender");
  if (sender) return messageDriver({ of: "sender-messages", senderId: sender.userId }, sender);
  const publicStreams = find("streams", (t) => t.which === "public");
  if (publicStreams && narrow.includeHistory) {
    return messageDriver({ of: "realm-messages", realmId });
  }
  return umDriver({ of: "user-messages", userId: viewerId });
}

/**
 * The viewer's sparse flag source for a positive `is:starred`,
 * `is:mentioned` or `is:unread` term, in that order (not exact: the
 * narrow's other terms are checked on each candidate), or undefined.
 */
function sparseFlagDriver(
  viewerId: number,
  find: (kind: "is", pred: (t: Extract<ResolvedTerm, { kind: "is" }>) => boolean) => ResolvedTerm | undefined,
): Driver | undefined {
  const sources = [
    ["starred", { of: "starred-user-messages", userId: viewerId }],
    ["mentioned", { of: "mentioned-user-messages", userId: viewerId }],
    ["unread", { of: "unread-user-messages", userId: viewerId }],
  ] as const;
  for (const [what, where] of sources) {
    if (find("is", (t) => t.what === what)) return { source: "index", where, items: "user_message", exact: false };
  }
  return undefined;
}

/**
 * The viewer's unread UserMessages (a sparse source), oldest first: the driver of
 * the `first_unread` anchor whatever the narrow, since a user's unread
 * messages are few next to the history a stream or conversation index holds.
 */
export function unreadDriver(viewerId: number): Driver {
  return { source: "index", where: { of: "unread-user-messages", userId: viewerId }, items: "user_message", exact: false };
}
