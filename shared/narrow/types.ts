import type { StreamRecord } from "../data/records/stream.js";

/**
 * A narrow term with its operands looked up: streams and users by name,
 * email or ID, conversations by their participants. What `filter.ts`
 * evaluates and the message-fetch planner drives queries from.
 */
export type ResolvedTerm = { negated: boolean } & (
  | { kind: "stream"; stream: StreamRecord; historyAccess: boolean }
  | { kind: "streams"; which: "public" | "web-public"; streamIds: Set<number> }
  | { kind: "topic"; topic: string }
  | { kind: "sender"; userId: number }
  /** `recipientId` undefined: these users never talked, the term matches nothing. */
  | { kind: "dm"; userIds: number[]; recipientId: number | undefined }
  | { kind: "dm-including"; userId: number; groupOnly: boolean }
  /**
   * `followedTopics`, for `is:followed` only: the viewer's followed topics
   * as `followedTopicKey` strings (`filter.ts`).
   */
  | { kind: "is"; what: string; followedTopics?: ReadonlySet<string> }
  | { kind: "has"; what: string }
  | { kind: "id"; id: number }
  | { kind: "search"; terms: string[] }
  /**
   * `in:home`: messages not hidden by muting. `mutedStreamIds` are the
   * viewer's muted subscriptions; `topicPolicies` maps `followedTopicKey`
   * strings to the viewer's visibility policy for that topic.
   */
  | { kind: "home"; mutedStreamIds: ReadonlySet<number>; topicPolicies: ReadonlyMap<string, number> }
  /** `near` (an anchor, not a filter) and `in:all` (everything). */
  | { kind: "noop" }
);

/** A narrow with every term resolved, and whether shared history may be returned. */
export interface ResolvedNarrow {
  terms: ResolvedTerm[];
  /**
   * Zulip's `ok_to_include_history`: messages the viewer has no UserMessage
   * row for may be returned, because a positive stream term limits the
   * query to streams whose history the viewer may read (or to public
   * streams for a non-guest), and no `is:` term needs the viewer's flags.
   */
  includeHistory: boolean;
}
