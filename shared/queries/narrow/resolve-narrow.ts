import type { Deps } from "../../deps.js";
import { usersByEmail, pyList } from "../../access/users-by-email.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { StreamRecord } from "../../data/records/stream.js";
import type { UserRecord } from "../../data/records/user.js";

import { getDirectRecipientId } from "../../data/recipients.js";
import { getStream, getStreamIdByName, listRealmStreams } from "../../data/streams.js";
import { getSubscription, listUserSubscriptions } from "../../data/subscriptions.js";
import type { UserTopicRecord } from "../../data/records/user-topic.js";
import { listUserTopics } from "../../data/user-topics.js";
import { getUsersByIds } from "../../data/users.js";
import { isGuest } from "../../domain/roles.js";
import { canReadStreamHistory } from "../../access/stream.js";
import { followedTopicKey } from "../../narrow/filter.js";
import { searchTerms } from "../../narrow/search.js";
import { VisibilityPolicy } from "../muting/muting.js";
import { BadNarrowOperatorError, type NarrowTerm } from "../../narrow/terms.js";
import type { ResolvedNarrow, ResolvedTerm } from "../../narrow/types.js";

export type { ResolvedNarrow, ResolvedTerm };

type LookupDeps = Pick<Deps, "db" | "table" | "config">;

async function resolveStreamTerm(
  deps: LookupDeps,
  realm: RealmRecord,
  viewer: UserRecord,
  operand: string | number,
): Promise<{ stream: StreamRecord; historyAccess: boolean }> {
  // Like Zulip's get_stream_by_narrow_operand_access_unchecked: a private
  // stream the viewer cannot read is still found; it then only yields the
  // viewer's own UserMessage rows (none if they never were subscribed).
  const id = typeof operand === "number" ? operand : await getStreamIdByName(deps, realm.id, operand);
  if (id === undefined) throw new BadNarrowOperatorError(`unknown channel ${String(operand)}`);
  const [stream, sub] = await Promise.all([getStream(deps, realm.id, id), getSubscription(deps, viewer.user_id, id)]);
  if (!stream) throw new BadNarrowOperatorError(`unknown channel ${String(operand)}`);
  const activeSub = sub?.active ? sub : undefined;
  return { stream, historyAccess: canReadStreamHistory(viewer, stream, activeSub) };
}

/** The viewer's followed topics as `followedTopicKey` strings. */
async function followedTopics(topicRecords: Promise<UserTopicRecord[]>): Promise<Set<string>> {
  const records = await topicRecords;
  return new Set(
    records.filter((r) => r.visibility_policy === VisibilityPolicy.FOLLOWED).map((r) => followedTopicKey(r.stream_id, r.topic_name)),
  );
}

/** `in:home`'s data: the viewer's muted streams (one Query of subscriptions) and topic policies. */
async function homeTerm(
  deps: LookupDeps,
  viewer: UserRecord,
  topicRecords: Promise<UserTopicRecord[]>,
  negated: boolean,
): Promise<ResolvedTerm> {
  const [subs, topics] = await Promise.all([listUserSubscriptions(deps, viewer.user_id), topicRecords]);
  const mutedStreamIds = new Set(subs.filter((s) => s.active && s.is_muted).map((s) => s.stream_id));
  const topicPolicies = new Map(topics.map((r) => [followedTopicKey(r.stream_id, r.topic_name), r.visibility_policy] as const));
  return { kind: "home", negated, mutedStreamIds, topicPolicies };
}

/** Resolves one user operand (email or ID) of `sender`, `dm-including`, `group-pm-with`. */
async function resolveUserTerm(deps: LookupDeps, realm: RealmRecord, operand: string | number): Promise<number> {
  if (typeof operand === "number") {
    const found = await getUsersByIds(deps, realm.id, [operand]);
    if (!found.has(operand)) throw new BadNarrowOperatorError(`unknown user ${operand}`);
    return operand;
  }
  const found = await usersByEmail(deps, realm, [operand]);
  const user = found.get(operand.trim().toLowerCase());
  if (!user) throw new BadNarrowOperatorError(`unknown user ${operand}`);
  return user.user_id;
}

async function resolveDmTerm(
  deps: LookupDeps,
  realm: RealmRecord,
  viewer: UserRecord,
  operand: string | number[],
): Promise<{ userIds: number[]; recipientId: number | undefined }> {
  const desc = typeof operand === "string" ? operand : pyList(operand);
  let ids: number[];
  if (typeof operand === "string") {
    const emails = operand.split(",").map((e) => e.trim().toLowerCase());
    const found = await usersByEmail(deps, realm, emails);
    if (emails.some((e) => !found.has(e))) throw new BadNarrowOperatorError(`unknown user in ${desc}`);
    ids = emails.map((e) => found.get(e)!.user_id);
    const participants = [...new Set([...ids, viewer.user_id])];
    return { userIds: participants, recipientId: await getDirectRecipientId(deps, realm.id, participants) };
  }
  ids = operand;
  const participants = [...new Set([...ids, viewer.user_id])];
  const [found, recipientId] = await Promise.all([
    getUsersByIds(deps, realm.id, ids),
    getDirectRecipientId(deps, realm.id, participants),
  ]);
  if (ids.length === 0 || ids.some((id) => !found.has(id))) throw new BadNarrowOperatorError(`unknown user in ${desc}`);
  return { userIds: participants, recipientId };
}

/**
 * Looks up every operand of a parsed narrow, all terms in parallel: at most
 * two round trips for stream names (name item, then stream and the
 * viewer's subscription) and for DM emails (email items, then users and the
 * conversation), one for IDs; the realm's streams (one Query) only for a
 * `streams:` term; the viewer's topic policies (one Query) only for `is:followed` or `in:home`,
 * and their subscriptions (one Query) only for `in:home`.
 *
 * Several positive `search` terms are joined into one, as Zulip does.
 * @throws BadNarrowOperatorError `unknown channel X`, `unknown user X`, `unknown user in X`
 */
export async function resolveNarrow(
  deps: LookupDeps,
  realm: RealmRecord,
  viewer: UserRecord,
  terms: NarrowTerm[],
): Promise<ResolvedNarrow> {
  let realmStreams: Promise<StreamRecord[]> | undefined;
  const streamsOfRealm = () => (realmStreams ??= listRealmStreams(deps, realm.id));
  let userTopics: Promise<UserTopicRecord[]> | undefined;
  const topicsOfViewer = () => (userTopics ??= listUserTopics(deps, viewer.user_id));
  const positiveSearch = terms.filter((t) => t.operator === "search" && !t.negated).map((t) => String(t.operand));

  const resolved = await Promise.all(
    terms.map(async (t): Promise<ResolvedTerm | undefined> => {
      const negated = t.negated;
      switch (t.operator) {
        case "stream":
          return { kind: "stream", negated, ...(await resolveStreamTerm(deps, realm, viewer, t.operand as string | number)) };
        case "streams": {
          const which = t.operand as "public" | "web-public";
          const streams = await streamsOfRealm();
          const ids = streams
            .filter((s) => !s.deactivated && (which === "public" ? !s.invite_only : s.is_web_public))
            .map((s) => s.stream_id);
          return { kind: "streams", negated, which, streamIds: new Set(ids) };
        }
        case "topic":
          return { kind: "topic", negated, topic: String(t.operand) };
        case "sender":
          return { kind: "sender", negated, userId: await resolveUserTerm(deps, realm, t.operand as string | number) };
        case "dm":
          return { kind: "dm", negated, ...(await resolveDmTerm(deps, realm, viewer, t.operand as string | number[])) };
        case "dm-including":
        case "group-pm-with":
          return {
            kind: "dm-including",
            negated,
            groupOnly: t.operator === "group-pm-with",
            userId: await resolveUserTerm(deps, realm, t.operand as string | number),
          };
        case "is":
          if (t.operand === "followed") return { kind: "is", negated, what: "followed", followedTopics: await followedTopics(topicsOfViewer()) };
          return { kind: "is", negated, what: String(t.operand) };
        case "has":
          return { kind: "has", negated, what: String(t.operand) };
        case "id":
          return { kind: "id", negated, id: Number(t.operand) };
        case "search":
          if (!negated) return undefined; // joined below
          return { kind: "search", negated, terms: searchTerms(String(t.operand)) };
        case "in":
          if (t.operand === "home") return await homeTerm(deps, viewer, topicsOfViewer(), negated);
          return { kind: "noop", negated };
        default:
          return { kind: "noop", negated };
      }
    }),
  );
  const out = resolved.filter((t): t is ResolvedTerm => t !== undefined);
  if (positiveSearch.length > 0) out.push({ kind: "search", negated: false, terms: searchTerms(positiveSearch.join(" ")) });

  const positive = out.filter((t) => !t.negated);
  const streamTerms = positive.filter((t) => t.kind === "stream");
  const publicTerm = positive.some((t) => t.kind === "streams" && t.which === "public");
  let includeHistory =
    (streamTerms.length > 0 && streamTerms.every((t) => t.kind === "stream" && t.historyAccess)) ||
    (publicTerm && !isGuest(viewer));
  if (out.some((t) => t.kind === "is")) includeHistory = false;
  return { terms: out, includeHistory };
}
