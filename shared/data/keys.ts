/**
 * The one module of key builders for the table (docs/data-model.md).
 *
 * Every partition/sort key string of every item type is built here and only
 * here, ElectroDB-style: an entity is a family of items, an access pattern is
 * a named builder. Numeric IDs in sort keys are padded to 16 digits so that
 * lexicographic order equals numeric order (message IDs stay below 10^16).
 */

/** Pads a non-negative integer to 16 digits for use in a sort key. */
export function pad(n: number): string {
  return Math.trunc(n).toString().padStart(16, "0");
}

/** Inverse of {@link pad}. */
export function unpad(s: string): number {
  return Number.parseInt(s, 10);
}

/** Sort-key prefix of the unique-email items (`keys.userByEmail`); what follows it is the lower-cased email. */
export const EMAIL_SK_PREFIX = "EMAIL#";

export const keys = {
  /** Atomic counter for one ID space (`realm`, `user`, `stream`, `message`, `recipient`, ...). */
  counter: (name: string) => ({ pk: `COUNTER#${name}`, sk: "COUNTER" }),

  /** A realm (organization). */
  realm: (realmId: number) => ({ pk: `REALM#${realmId}`, sk: "REALM" }),
  /**
   * What the push notification service was last told of a realm's users
   * (`shared/data/push-state.ts`); in the realm's partition, so deleting the
   * organization deletes it.
   */
  realmPushState: (realmId: number) => ({ pk: `REALM#${realmId}`, sk: "PUSHSTATE" }),
  /** Unique-name item mapping a subdomain (`""` for the default organization) to its realm. */
  realmBySubdomain: (subdomain: string) => ({ pk: `REALMHOST#${subdomain.toLowerCase()}`, sk: "REALMHOST" }),
  /** All users of a realm are one partition, queried with `sk` prefix {@link keys.userPrefix}. */
  user: (realmId: number, userId: number) => ({ pk: `REALM#${realmId}`, sk: `USER#${pad(userId)}` }),
  userPrefix: "USER#",
  /** Unique-email item mapping a lower-cased delivery email to its user within a realm. */
  userByEmail: (realmId: number, email: string) => ({ pk: `REALM#${realmId}`, sk: `${EMAIL_SK_PREFIX}${email.toLowerCase()}` }),
  /** Lookup item from the SHA-256 of an API key to its user; the key itself is never a key. */
  apiKey: (apiKeyHash: string) => ({ pk: `APIKEY#${apiKeyHash}`, sk: "APIKEY" }),

  /** A stream; all streams of a realm share a partition, queried with prefix {@link keys.streamPrefix}. */
  stream: (realmId: number, streamId: number) => ({ pk: `REALM#${realmId}`, sk: `STREAM#${pad(streamId)}` }),
  streamPrefix: "STREAM#",
  /** Unique-name item mapping a lower-cased stream name to its stream within a realm. */
  streamByName: (realmId: number, name: string) => ({ pk: `REALM#${realmId}`, sk: `STREAMNAME#${name.toLowerCase()}` }),
  /** A user's subscription to a stream; the user's subscriptions are one partition. */
  subscription: (userId: number, streamId: number) => ({ pk: `SUBS#${userId}`, sk: pad(streamId) }),
  userSubscriptions: (userId: number) => ({ pk: `SUBS#${userId}` }),
  /** gsi1 of a subscription item: the stream's subscribers. */
  streamSubscribersIndex: (streamId: number, userId: number) => ({ gsi1pk: `STREAMSUBS#${streamId}`, gsi1sk: pad(userId) }),
  streamSubscribers: (streamId: number) => ({ gsi1pk: `STREAMSUBS#${streamId}` }),

  /** Maps a sorted set of user IDs (a private conversation) to its recipient ID. */
  directRecipient: (realmId: number, userIds: number[]) => ({
    pk: `REALM#${realmId}`,
    sk: `DMSET#${[...new Set(userIds)].sort((a, b) => a - b).join(",")}`,
  }),
  /** The recipient record: what a recipient ID stands for. */
  recipient: (recipientId: number) => ({ pk: `RECIPIENT#${recipientId}`, sk: "RECIPIENT" }),

  /** A message; every message is its own partition (read with BatchGet). */
  message: (messageId: number) => ({ pk: `MSG#${messageId}`, sk: "MSG" }),
  /**
   * Who received a message (Zulip's UserMessage reverse lookup): chunks of
   * user IDs in the message's own partition, read together with one Query
   * on the prefix {@link keys.messageRecipientsPrefix}. Never read by
   * message pages (those BatchGet `sk MSG` only).
   */
  messageRecipients: (messageId: number, chunk: string) => ({ pk: `MSG#${messageId}`, sk: `RECIPIENTS#${chunk}` }),
  messageRecipientsPrefix: "RECIPIENTS#",
  /** gsi1 of a stream message: history of one stream. */
  messageByStream: (streamId: number, messageId?: number) => ({
    gsi1pk: `STREAMMSG#${streamId}`,
    ...(messageId === undefined ? {} : { gsi1sk: pad(messageId) }),
  }),
  /** gsi2 of a stream message: history of one topic (topics compare case-insensitively). */
  messageByTopic: (streamId: number, topic: string, messageId?: number) => ({
    gsi2pk: `TOPICMSG#${streamId}#${topic.toLowerCase()}`,
    ...(messageId === undefined ? {} : { gsi2sk: pad(messageId) }),
  }),
  /** gsi3 of a message: everything one user sent. */
  messageBySender: (senderId: number, messageId?: number) => ({
    gsi3pk: `SENDERMSG#${senderId}`,
    ...(messageId === undefined ? {} : { gsi3sk: pad(messageId) }),
  }),
  /** gsi4 of a message: every message of a realm, newest last. */
  messageByRealm: (realmId: number, messageId?: number) => ({
    gsi4pk: `REALMMSG#${realmId}`,
    ...(messageId === undefined ? {} : { gsi4sk: pad(messageId) }),
  }),

  /** A user's row for one message (Zulip's UserMessage): flags; the user's history is one partition. */
  userMessage: (userId: number, messageId: number) => ({ pk: `UM#${userId}`, sk: pad(messageId) }),
  userMessages: (userId: number) => ({ pk: `UM#${userId}` }),
  /**
   * gsi1 of a direct message's UserMessage: one user's messages of one
   * conversation. Rows of stream messages have none (a move would rewrite
   * every row; a stream narrow reads the stream's messages instead).
   */
  userMessageByRecipient: (userId: number, recipientId: number, messageId?: number) => ({
    gsi1pk: `UMREC#${userId}#${recipientId}`,
    ...(messageId === undefined ? {} : { gsi1sk: pad(messageId) }),
  }),
  /** gsi2 (sparse, set while starred). */
  userMessageStarred: (userId: number, messageId?: number) => ({
    gsi2pk: `UMSTAR#${userId}`,
    ...(messageId === undefined ? {} : { gsi2sk: pad(messageId) }),
  }),
  /** gsi3 (sparse, set while unread). */
  userMessageUnread: (userId: number, messageId?: number) => ({
    gsi3pk: `UMUNREAD#${userId}`,
    ...(messageId === undefined ? {} : { gsi3sk: pad(messageId) }),
  }),
  /** gsi4 (sparse, set while mentioned or wildcard-mentioned). */
  userMessageMentioned: (userId: number, messageId?: number) => ({
    gsi4pk: `UMMENTION#${userId}`,
    ...(messageId === undefined ? {} : { gsi4sk: pad(messageId) }),
  }),
  /**
   * gsi6 (sparse, set while read; keys only): the readers of one message,
   * by user ID. Read receipts Query it (`messageReaderIds`).
   */
  userMessageReader: (messageId: number, userId?: number) => ({
    gsi6pk: `UMREAD#${messageId}`,
    ...(userId === undefined ? {} : { gsi6sk: pad(userId) }),
  }),
  /** gsi5 (sparse, set on private messages): `is:dm`. */
  userMessagePrivate: (userId: number, messageId?: number) => ({
    gsi5pk: `UMDM#${userId}`,
    ...(messageId === undefined ? {} : { gsi5sk: pad(messageId) }),
  }),

  /** Posting of one search term for one message (search index). */
  searchPosting: (realmId: number, term: string, messageId: number) => ({
    pk: `SEARCH#${realmId}#${term}`,
    sk: pad(messageId),
  }),
  searchTerm: (realmId: number, term: string) => ({ pk: `SEARCH#${realmId}#${term}` }),

  /** An event queue registered by `POST /register`. */
  eventQueue: (queueId: string) => ({ pk: `QUEUE#${queueId}`, sk: "QUEUE" }),
  /** One event in a user's event log; `eventKey` sorts by time of writing. */
  userEvent: (userId: number, eventKey: string) => ({ pk: `UEVT#${userId}`, sk: eventKey }),
  userEvents: (userId: number) => ({ pk: `UEVT#${userId}` }),
  /** A realm-wide log of public-stream message events, read by `all_public_streams` queues. */
  realmPublicEvent: (realmId: number, eventKey: string) => ({ pk: `REVT#${realmId}`, sk: eventKey }),
  realmPublicEvents: (realmId: number) => ({ pk: `REVT#${realmId}` }),
  /**
   * A realm-wide log of stream `typing` events, one item per notification
   * addressed to its recipients, read by every queue of the realm that takes
   * stream typing events (instead of one copy per subscriber).
   */
  realmTypingEvent: (realmId: number, eventKey: string) => ({ pk: `RTYP#${realmId}`, sk: eventKey }),
  realmTypingEvents: (realmId: number) => ({ pk: `RTYP#${realmId}` }),

  /** Presence of one user (one item, overwritten by each ping). */
  presence: (realmId: number, userId: number) => ({ pk: `PRESENCE#${realmId}`, sk: pad(userId) }),
  realmPresence: (realmId: number) => ({ pk: `PRESENCE#${realmId}` }),
  /** A user's missed messages waiting for their notification email's batch to end (one item, taken whole by the batch's job). */
  missedMessages: (userId: number) => ({ pk: `MISSEDMSG#${userId}`, sk: "PENDING" }),

  /**
   * One registered mobile device of a user (Zulip's `PushDeviceToken`): the
   * user's devices are one partition; the sort key is the token kind and the
   * SHA-256 hex of the token (tokens run to 4,096 characters, keys to 1,024 bytes).
   */
  pushDevice: (userId: number, kind: number, tokenHash: string) => ({ pk: `PUSHDEV#${userId}`, sk: `${kind}#${tokenHash}` }),
  userPushDevices: (userId: number) => ({ pk: `PUSHDEV#${userId}` }),
  /** How many devices a user has registered, beside them: the notification decision reads many users' counts with one BatchGet. */
  pushDeviceCount: (userId: number) => ({ pk: `PUSHDEV#${userId}`, sk: "COUNT" }),

  /** One user's alert words (one item holding the whole list). */
  alertWords: (userId: number) => ({ pk: `ALERTWORDS#${userId}`, sk: "ALERTWORDS" }),
  /** One draft of a user; the user's drafts are one partition, sorted by draft ID. */
  draft: (userId: number, draftId: number) => ({ pk: `DRAFTS#${userId}`, sk: pad(draftId) }),
  userDrafts: (userId: number) => ({ pk: `DRAFTS#${userId}` }),
  /** One scheduled message of a user (Zulip's ScheduledMessage); a user's scheduled messages are one partition, sorted by ID. */
  scheduledMessage: (userId: number, id: number) => ({ pk: `SCHED#${userId}`, sk: pad(id) }),
  userScheduledMessages: (userId: number) => ({ pk: `SCHED#${userId}` }),
  /** One user muted by another (Zulip's MutedUser); a muter's mutes are one partition. */
  mutedUser: (userId: number, mutedUserId: number) => ({ pk: `MUTES#${userId}`, sk: pad(mutedUserId) }),
  userMutes: (userId: number) => ({ pk: `MUTES#${userId}` }),
  /**
   * A user's visibility policy for one topic (Zulip's UserTopic); a user's
   * topics are one partition. Topics compare case-insensitively.
   */
  userTopic: (userId: number, streamId: number, topic: string) => ({
    pk: `UTOPIC#${userId}`,
    sk: `${pad(streamId)}#${topic.toLowerCase()}`,
  }),
  userTopics: (userId: number) => ({ pk: `UTOPIC#${userId}` }),
  /** The IDs of the users with a stored policy on one topic (lower-cased), the reverse of `userTopic`. */
  topicPolicyUsers: (streamId: number, topic: string) => ({
    pk: `TOPICPOLICY#${pad(streamId)}#${topic.toLowerCase()}`,
    sk: "USERS",
  }),

  /** A user-created group; a realm's groups share its partition, queried with prefix {@link keys.userGroupPrefix}. */
  userGroup: (realmId: number, groupId: number) => ({ pk: `REALM#${realmId}`, sk: `UGROUP#${pad(groupId)}` }),
  userGroupPrefix: "UGROUP#",
  /** Unique-name item mapping a lower-cased group name to its group within a realm. */
  userGroupByName: (realmId: number, name: string) => ({ pk: `REALM#${realmId}`, sk: `UGROUPNAME#${name.toLowerCase()}` }),
  /** A realm's group-graph version: every subgroup change is conditioned on it, so no two concurrent changes make a cycle. */
  userGroupGraph: (realmId: number) => ({ pk: `REALM#${realmId}`, sk: "UGROUPGRAPH" }),
  /** Every custom profile field of a realm: one item in the realm's partition. */
  realmProfileFields: (realmId: number) => ({ pk: `REALM#${realmId}`, sk: "PROFILEFIELDS" }),
  /** Every linkifier of a realm, in the realm's order: one item in the realm's partition. */
  realmLinkifiers: (realmId: number) => ({ pk: `REALM#${realmId}`, sk: "LINKIFIERS" }),
  /** A code playground of a realm (in the realm's partition), listed with prefix {@link keys.playgroundPrefix}. */
  playground: (realmId: number, playgroundId: number) => ({ pk: `REALM#${realmId}`, sk: `PLAYGROUND#${pad(playgroundId)}` }),
  playgroundPrefix: "PLAYGROUND#",
  /** A public data export of a realm (in the realm's partition), listed with prefix {@link keys.realmExportPrefix}. */
  realmExport: (realmId: number, exportId: number) => ({ pk: `REALM#${realmId}`, sk: `EXPORT#${pad(exportId)}` }),
  realmExportPrefix: "EXPORT#",
  /** A custom emoji of a realm (in the realm's partition), listed with prefix {@link keys.realmEmojiPrefix}. */
  realmEmoji: (realmId: number, emojiId: number) => ({ pk: `REALM#${realmId}`, sk: `REALMEMOJI#${pad(emojiId)}` }),
  realmEmojiPrefix: "REALMEMOJI#",
  /** Unique-name claim of an active custom emoji (released on deactivation), so two uploads cannot take one name. */
  realmEmojiName: (realmId: number, name: string) => ({ pk: `REALM#${realmId}`, sk: `REALMEMOJINAME#${name}` }),
  /** Every item of a realm's own partition (realm, users, emails, streams, names, conversation claims, …). */
  realmPartition: (realmId: number) => ({ pk: `REALM#${realmId}` }),
  /** Sort-key prefix of the conversation claims (`keys.directRecipient`) in a realm's partition. */
  directRecipientPrefix: "DMSET#",
  /** Every item of a message's partition (the message and its `RECIPIENTS#` chunks). */
  messagePartition: (messageId: number) => ({ pk: `MSG#${messageId}` }),
  /**
   * A demo organization's entry in the one partition of scheduled
   * deletions, sorted by date: the sweep reads the due ones with one Query.
   */
  demoDeletion: (dateSeconds: number, realmId: number) => ({ pk: "DEMODELETE", sk: `${pad(dateSeconds)}#${pad(realmId)}` }),
  demoDeletions: { pk: "DEMODELETE" },
  /** gsi1 of an event queue: a realm's queues, so that deleting the realm finds them. */
  eventQueueByRealm: (realmId: number, queueId?: string) => ({
    gsi1pk: `REALMQUEUES#${realmId}`,
    ...(queueId === undefined ? {} : { gsi1sk: queueId }),
  }),
  /**
   * The rate-limit counts of one subject (SHA-256 hex of a user's API key,
   * an IP address or a username) under one rule: a ring of sub-window
   * counts, `c<slot>` hits of sub-window `t<slot>` (shared/domain/rate-limit.ts).
   * Its own partition per subject, so no realm partition gets hot; the
   * item expires by TTL a window after its last hit.
   */
  rateLimitWindow: (scope: string, subjectHash: string) => ({ pk: `RATELIMIT#${scope}#${subjectHash}`, sk: "SW" }),
  /**
   * An uploaded file (Zulip's `Attachment`) in its realm's partition, keyed by
   * its path ID (`<realm_id>/<2 hex>/<random>/<name>`, the S3 key of its bytes).
   */
  attachment: (realmId: number, pathId: string) => ({ pk: `REALM#${realmId}`, sk: `ATTACH#${pathId}` }),
  attachmentPrefix: "ATTACH#",
  /** gsi1 of an attachment: its owner's uploads, by attachment ID (`GET /attachments`, `DELETE /attachments/{id}`). */
  attachmentByOwner: (userId: number, attachmentId?: number) => ({
    gsi1pk: `ATTACHOWNER#${userId}`,
    ...(attachmentId === undefined ? {} : { gsi1sk: pad(attachmentId) }),
  }),
  /**
   * gsi2 of an attachment while no message claims it: every unclaimed upload
   * of the deployment sorted by upload time (UNIX seconds), so the daily sweep
   * reads the expired ones with one Query; removed when a message claims it.
   */
  attachmentUnclaimed: (createSeconds?: number, pathId?: string) => ({
    gsi2pk: "ATTACHUNCLAIMED",
    ...(createSeconds === undefined ? {} : { gsi2sk: `${pad(createSeconds)}#${pathId ?? ""}` }),
  }),
  /** A message's claim of an attachment, in the realm's partition: what deleting the message releases. */
  attachmentClaim: (realmId: number, messageId: number, pathId: string) => ({
    pk: `REALM#${realmId}`,
    sk: `ATTACHCLAIM#${pad(messageId)}#${pathId}`,
  }),
  attachmentClaimsOf: (messageId: number) => `ATTACHCLAIM#${pad(messageId)}#`,
  /**
   * A browser session, keyed by the SHA-256 hex of its `sessionid` cookie
   * (its own partition; the item expires by TTL), so that reading the table
   * never yields a live cookie.
   */
  session: (idHash: string) => ({ pk: `SESSION#${idHash}`, sk: "SESSION" }),
  /**
   * gsi1 of a session: a realm's sessions by user, so that deactivating a
   * user (a `begins_with` on the user's padded ID) or an organization (the
   * whole partition) finds them with one Query.
   */
  sessionByUser: (realmId: number, userId?: number, idHash?: string) => ({
    gsi1pk: `REALMSESSIONS#${realmId}`,
    ...(userId === undefined ? {} : { gsi1sk: `${pad(userId)}#${idHash ?? ""}` }),
  }),
  /**
   * A confirmation link (invitation, reusable invitation, sign-up, password
   * reset, email change), keyed by the SHA-256 hex of its key, its own
   * partition; the item expires by TTL some days after the link does.
   */
  confirmation: (keyHash: string) => ({ pk: `CONFIRM#${keyHash}`, sk: "CONFIRM" }),
  /**
   * An invitation (email or reusable link) of a realm: the realm's invitations
   * are one partition, so one Query lists them (`GET /invites`); sort key the
   * kind and the padded ID (the two kinds have ID spaces of their own, as in Zulip).
   */
  invite: (realmId: number, multiuse: boolean, inviteId: number) => ({
    pk: `INVITES#${realmId}`,
    sk: `${multiuse ? "MULTIUSE" : "EMAIL"}#${pad(inviteId)}`,
  }),
  realmInvites: (realmId: number) => ({ pk: `INVITES#${realmId}` }),
  /** Invitation emails a realm sent on one UTC day (the daily limit's counter; expires by TTL). */
  invitesSent: (realmId: number, day: number) => ({ pk: `INVITES#${realmId}`, sk: `SENT#${pad(day)}` }),
  /**
   * An address on the mail suppression list (a permanent bounce or a
   * complaint SES reported), keyed by the lower-cased address, its own
   * partition: the worker reads it with one GetItem before each send.
   */
  emailSuppression: (email: string) => ({ pk: `SUPPRESS#${email.toLowerCase()}`, sk: "SUPPRESS" }),
  /** A short-lived token of `/user_uploads/temporary/...` (its own partition; the item expires by TTL). */
  fileAccessToken: (token: string) => ({ pk: `FILETOKEN#${token}`, sk: "FILETOKEN" }),
  /** Lookup item from a stream's incoming-email token to its realm and stream (its own partition; `shared/data/email-gateway.ts`). */
  streamEmailToken: (token: string) => ({ pk: `EMAILTOKEN#${token}`, sk: "EMAILTOKEN" }),
  /** The one-message marker of a received email, by the SHA-256 hex of its object key (expires by TTL). */
  incomingEmail: (keyHash: string) => ({ pk: `INEMAIL#${keyHash}`, sk: "INEMAIL" }),
  /** The bytes of every upload of a realm (`upload_space_used`), the quota's counter. */
  uploadSpace: (realmId: number) => ({ pk: `REALM#${realmId}`, sk: "UPLOADSPACE" }),
} as const;

/** DynamoDB's key size limits in UTF-8 bytes: partition keys 2,048, sort keys 1,024 (base table and indexes). */
const KEY_LIMITS = { partition: 2048, sort: 1024 } as const;

/**
 * Whether a key built from user input (an email, a stream name, a queue ID,
 * a subdomain) is within DynamoDB's key size limits. No item can have a key
 * beyond them, and DynamoDB refuses such a request instead of finding
 * nothing, so lookups answer "not found" without asking.
 * @param key attribute → value; attributes ending in `sk` are sort keys
 */
export function keyFits(key: Record<string, unknown>): boolean {
  for (const [attr, value] of Object.entries(key)) {
    if (typeof value !== "string") continue;
    const limit = attr.endsWith("sk") ? KEY_LIMITS.sort : KEY_LIMITS.partition;
    if (Buffer.byteLength(value, "utf8") > limit) return false;
  }
  return true;
}
