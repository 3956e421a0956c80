import { keys } from "../data/keys.js";
import type { IndexName } from "../data/table.js";
import type { ResolvedNarrow, ResolvedTerm } from "./types.js";
import { drivingTerm } from "./search.js";

/**
 * Query planning for `GET /messages` (pure): which ID-sorted partition to
 * page through — the "driver" — for a resolved narrow. Every candidate the
 * driver yields is then checked against the whole narrow and against
 * visibility, so the driver only decides cost, never correctness.
 *
 * Drivers, most selective first (docs/data-model.md "Reading messages"):
 * `id` → the message itself; `search` (without stream+topic) → the rarest
 * term's postings; stream+topic → the topic index of messages (gsi2) when
 * the viewer may read the stream's history, else their UserMessages for the
 * stream (UM gsi1); `dm` → the viewer's UserMessages of the conversation
 * (UM gsi1); stream → the stream index (gsi1) or UM gsi1; `is:starred`,
 * `is:mentioned`, `is:unread`, `is:dm` → the viewer's sparse flag indexes;
 * `dm-including` → `is:dm`; `sender` → the sender index (gsi3);
 * `streams:public` → the realm index (gsi4); anything else → the viewer's
 * whole history (UM base).
 */

/** Where a driver's items live: a partition whose sort key is a padded message ID. */
export interface DriverWhere {
  index?: IndexName;
  pkAttr: string;
  pk: string;
  skAttr: string;
}

export type Driver =
  /** The narrow matches nothing (a conversation that never existed). */
  | { source: "none" }
  /** Exactly these message IDs (the `id` operator). */
  | { source: "ids"; ids: number[] }
  | {
      source: "index";
      where: DriverWhere;
      /** What the partition's items are: messages, the viewer's UserMessages, or search postings. */
      items: "message" | "user_message" | "posting";
      /**
       * True when every candidate is a result: the driver enforces every
       * term and visibility, so a page of N items gives N messages and the
       * query can ask for exactly what it needs.
       */
      exact: boolean;
    };

const base = (pk: string): DriverWhere => ({ pkAttr: "pk", pk, skAttr: "sk" });
const gsi = (n: 1 | 2 | 3 | 4 | 5, pk: string): DriverWhere => ({
  index: `gsi${n}` as IndexName,
  pkAttr: `gsi${n}pk`,
  pk,
  skAttr: `gsi${n}sk`,
});

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

  const umDriver = (where: DriverWhere, ...covered: ResolvedTerm[]): Driver => ({
    source: "index",
    where,
    items: "user_message",
    exact: others(...covered).length === 0,
  });
  const messageDriver = (where: DriverWhere, ...covered: ResolvedTerm[]): Driver => ({
    source: "index",
    where,
    items: "message",
    // Without shared history, each candidate still needs the viewer's row.
    exact: narrow.includeHistory && others(...covered).length === 0,
  });

  const id = find("id");
  if (id) return { source: "ids", ids: [id.id] };

  const stream = find("stream");
  const topic = find("topic");
  const search = find("search");
  if (search && !(stream && topic)) {
    const term = drivingTerm(search.terms);
    if (term === undefined) return { source: "none" };
    return { source: "index", where: base(keys.searchTerm(realmId, term).pk), items: "posting", exact: false };
  }
  if (stream && topic) {
    return narrow.includeHistory
      ? messageDriver(gsi(2, keys.messageByTopic(stream.stream.stream_id, topic.topic).gsi2pk), stream, topic)
      : umDriver(gsi(1, keys.userMessageByRecipient(viewerId, stream.stream.recipient_id).gsi1pk), stream);
  }
  const dm = find("dm");
  if (dm) {
    if (dm.recipientId === undefined) return { source: "none" };
    return umDriver(gsi(1, keys.userMessageByRecipient(viewerId, dm.recipientId).gsi1pk), dm);
  }
  if (stream) {
    return narrow.includeHistory
      ? messageDriver(gsi(1, keys.messageByStream(stream.stream.stream_id).gsi1pk), stream)
      : umDriver(gsi(1, keys.userMessageByRecipient(viewerId, stream.stream.recipient_id).gsi1pk), stream);
  }
  const starred = find("is", (t) => t.what === "starred");
  if (starred) return umDriver(gsi(2, keys.userMessageStarred(viewerId).gsi2pk), starred);
  const mentioned = find("is", (t) => t.what === "mentioned");
  if (mentioned) return umDriver(gsi(4, keys.userMessageMentioned(viewerId).gsi4pk), mentioned);
  const unread = find("is", (t) => t.what === "unread");
  if (unread) return umDriver(gsi(3, keys.userMessageUnread(viewerId).gsi3pk), unread);
  const isDm = find("is", (t) => t.what === "dm");
  if (isDm) return umDriver(gsi(5, keys.userMessagePrivate(viewerId).gsi5pk), isDm);
  const including = find("dm-including");
  if (including) return umDriver(gsi(5, keys.userMessagePrivate(viewerId).gsi5pk));
  const sender = find("sender");
  if (sender) return messageDriver(gsi(3, keys.messageBySender(sender.userId).gsi3pk), sender);
  const publicStreams = find("streams", (t) => t.which === "public");
  if (publicStreams && narrow.includeHistory) {
    return messageDriver(gsi(4, keys.messageByRealm(realmId).gsi4pk));
  }
  return umDriver(base(keys.userMessages(viewerId).pk));
}

/**
 * The viewer's unread messages (sparse UM gsi3), oldest first: the driver of
 * the `first_unread` anchor whatever the narrow, since a user's unread
 * messages are few next to the history a stream or conversation index holds.
 */
export function unreadDriver(viewerId: number): Driver {
  return { source: "index", where: gsi(3, keys.userMessageUnread(viewerId).gsi3pk), items: "user_message", exact: false };
}
