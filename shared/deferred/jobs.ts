import { z } from "zod";

/*
 * Every kind of deferred job and its payload, as one zod schema, the way
 * `shared/events/schemas.ts` defines events: the TypeScript types producers
 * build jobs with are inferred from it (a payload with a missing, misspelt
 * or extra field does not compile), and the worker parses each SQS body with
 * it before dispatching (`functions/worker/jobs.ts`). Objects are strict, so
 * a job from a producer that drifted from its runner is refused where it is
 * read rather than half-run. The runners live with their actions; the
 * comments say where.
 */

const id = z.number().int();
const ids = z.array(id);

/** The user copies of a fanned-out event (`EventCopy` of the data layer): a user, and their message flags for `message` events. */
const eventCopySchema = z.strictObject({ id, flags: z.array(z.string()).optional() });

/**
 * `fanout_event` (`shared/events/publish.ts`): an event's copies for one
 * slice of a large audience. The event was built from its strict schema by
 * the action that sent it; the job carries it as stored (with the
 * public-stream marker), so only its `type` is checked here.
 */
const fanoutEventSchema = z.strictObject({
  event: z.object({ type: z.string() }).loose(),
  users: z.array(eventCopySchema),
});

/**
 * `write_user_messages` (`shared/actions/messages/deferred.ts`): UserMessage
 * rows, then `message` events, of one slice of a large audience. It carries
 * no event: the job rebuilds the `message` event from the stored message,
 * which keeps every payload a few kilobytes whatever the content's size.
 */
const writeUserMessagesSchema = z.strictObject({
  message_id: id,
  recipient_id: id,
  is_private: z.boolean(),
  /** The message went to a public stream: the request wrote its event's realm public-log copy (see `sendEvent`). */
  public_stream: z.boolean(),
  /** Stored flags per recipient. */
  rows: z.array(z.strictObject({ user_id: id, flags: z.array(z.string()) })),
  /** The recipients chunk this job writes (`RECIPIENTS#s<chunk>`): the job's index + 1, chunk 0 being the sender's, written inline. */
  chunk: id,
});

/**
 * `expand_stream_message` (`shared/actions/messages/deferred.ts`): what a
 * large stream message's recipients' rows need, so that the request never
 * reads the subscriber list.
 */
const expandStreamMessageSchema = z.strictObject({
  message_id: id,
  stream_id: id,
  recipient_id: id,
  public_stream: z.boolean(),
  /** The sender's row was written by the request. */
  sender_id: id,
  mentioned_user_ids: ids,
  stream_wildcard: z.boolean(),
  topic_wildcard: z.boolean(),
  /**
   * With `topic_wildcard`: the topic's participants before the message
   * (Zulip's `topic_participant_user_ids`); only they get
   * `topic_wildcard_mentioned`. Absent: nobody does.
   */
  topic_participant_ids: ids.optional(),
  /** Zulip's `limit_unread_user_ids` (resolution notices): when present, everyone else gets the message as read. */
  limit_unread_user_ids: ids.optional(),
  /** The realm has `alert_words_in_use`: the job reads the message and the subscribers' alert words for `has_alert_word`. */
  alert_words: z.boolean().optional(),
  /** Who muted the sender (Zulip's `muted_sender_user_ids`): they get the message as read. */
  muted_by_ids: ids.optional(),
});

/** `index_message` (`shared/actions/messages/deferred.ts`): the search postings of one message. */
const indexMessageSchema = z.strictObject({ realm_id: id, message_id: id });

/** What a `mark_as_read` job marks: everything, one stream, one topic of a stream, or everything one user sent. */
// `z.union` over strict objects with literal kinds: the bundles' zod has no
// `discriminatedUnion` (infra/bundling/zod-api.ts keeps every bundle small).
const markReadScopeSchema = z.union([
  z.strictObject({ kind: z.literal("all") }),
  z.strictObject({ kind: z.literal("stream"), stream_id: id }),
  z.strictObject({ kind: z.literal("topic"), stream_id: id, topic: z.string() }),
  /** Zulip's `do_mark_muted_user_messages_as_read`. */
  z.strictObject({ kind: z.literal("sender"), sender_id: id }),
]);

/** `mark_as_read` (`shared/actions/messages/mark-as-read.ts`): read marking beyond one request's share. */
const markAsReadSchema = z.strictObject({
  realm_id: id,
  user_id: id,
  scope: markReadScopeSchema,
  /** Continue after this message ID. */
  after: id,
});

/**
 * `move_messages` (`shared/actions/messages/edit/move-jobs.ts`): the rest of
 * a topic rename or of a stream move (whose `realm_id`, `prev_stream_id` and
 * `new_stream_id` say so), a slice per job, chained.
 */
const moveMessagesSchema = z.strictObject({
  /** The IDs still to move, in the order they are moved. */
  message_ids: ids,
  /** The topic after the move (equal to `prev_topic` for a stream move that keeps the topic). */
  topic: z.string(),
  user_id: id,
  /** UNIX seconds of the edit (same in every history entry of one move). */
  timestamp: id,
  prev_topic: z.string(),
  /** Stream moves only. */
  realm_id: id.optional(),
  prev_stream_id: id.optional(),
  new_stream_id: id.optional(),
});

/** `delete_messages` (`shared/actions/messages/delete-messages.ts`): UserMessage rows of a deleted message still to remove. */
const deleteMessagesSchema = z.strictObject({
  /** The message's organization, for the push removals of its rows (absent in jobs enqueued before it existed). */
  realm_id: id.optional(),
  message_id: id,
  user_ids: ids,
});

/** The phases of deleting an organization, in order (`shared/actions/realms/delete-realm.ts`). */
export const DELETE_REALM_PHASES = ["queues", "messages", "users", "logs", "realm", "finish"] as const;

/** `delete_realm` (`shared/actions/realms/delete-realm.ts`): one batch of deleting an organization's data, then the next. */
const deleteRealmSchema = z.strictObject({
  realm_id: id,
  phase: z.enum(DELETE_REALM_PHASES),
  /** Messages: the last message ID done; users: the last user ID done. */
  after_id: id.optional(),
  /** Realm partition: the last sort key done. */
  after_key: z.string().optional(),
});

/** `thumbnail` (`shared/actions/uploads/thumbnails.ts`): an organization's uploads to thumbnail, and whose messages to re-render. */
const thumbnailSchema = z.strictObject({ realm_id: id, path_ids: z.array(z.string()) });

/**
 * `send_scheduled_message` (`shared/actions/scheduled-messages/deliver.ts`):
 * look at one scheduled message again when it may be due. `version` is the
 * message's version the job was made for: an edit makes a new job and
 * retires this one.
 */
const sendScheduledMessageSchema = z.strictObject({
  realm_id: id,
  user_id: id,
  scheduled_message_id: id,
  version: id,
});

/**
 * `send_email` (`shared/mail/send-email.ts`): one rendered email to one
 * address. Actions render their template in the request (plain text and
 * HTML, user text escaped) and queue the result with `queueEmail`; the
 * worker checks the suppression list and hands it to the mailer (SES on
 * AWS, `.eml` files locally), as Zulip's `email_senders` queue does.
 */
const sendEmailSchema = z.strictObject({
  realm_id: id,
  /** Zulip's template name, for logs and tests: `invitation`, `password_reset`, `missed_message`, … */
  template: z.string().min(1).max(64),
  to: z.strictObject({ email: z.string().min(3).max(254), user_id: id.optional(), name: z.string().max(200).optional() }),
  subject: z.string().min(1).max(500),
  text: z.string().max(100_000),
  html: z.string().max(200_000),
  /** The sender's display name (the address is the deploy's `EMAIL_FROM`). @default the organization's name */
  from_name: z.string().max(200).optional(),
  reply_to: z.string().max(254).optional(),
});

/**
 * `ses_feedback` (`shared/actions/mail/feedback.ts`): a bounce or complaint
 * SES published for the configuration set (EventBridge's SES event, reshaped
 * by the rule's input transformer into this job; `infra/constructs/mail.ts`).
 * Permanent bounces and complaints put the addresses on the suppression list.
 */
const sesFeedbackSchema = z.strictObject({
  /** SES's `eventType`. */
  event_type: z.enum(["Bounce", "Complaint"]),
  /** SES's `bounce.bounceType` (`Permanent`, `Transient`, `Undetermined`); absent for complaints. */
  bounce_type: z.string().max(64).optional(),
  /**
   * The addresses concerned. The rule's transformer copies SES's recipient
   * list as it is (`bounce.bouncedRecipients` or
   * `complaint.complainedRecipients`: objects with `emailAddress`), which
   * is an array whatever its length; EventBridge's documentation does not
   * promise that a wildcard path (`[*].emailAddress`) matching one recipient
   * stays an array. This schema reduces each object to its address, so
   * runners see strings only.
   */
  recipients: z
    .array(z.union([z.string().max(254), z.object({ emailAddress: z.string().max(254) }).transform((r) => r.emailAddress)]))
    .max(100),
});

/**
 * `incoming_email` (`shared/actions/email-gateway/`): a raw message SES
 * receiving stored in the files bucket (`key`), to post to the stream its
 * recipient address names, as Zulip's email gateway does.
 */
const incomingEmailSchema = z.strictObject({ key: z.string().min(1).max(1024) });

/**
 * `message_notifications` (`shared/actions/notifications/message-notifications.ts`):
 * who of a message's recipients is notified (Zulip's notifiability
 * decision), from the flags of the rows the request wrote; stream messages
 * name their stream and topic (subscription settings, topic policies).
 */
const messageNotificationsSchema = z.strictObject({
  realm_id: id,
  message_id: id,
  sender_id: id,
  stream_id: id.optional(),
  topic: z.string().max(200).optional(),
  /** Rows that may notify (not the sender's, not read), at most an inline audience's. */
  recipients: z.array(z.strictObject({ user_id: id, flags: z.array(z.string()) })).max(1000),
});

/**
 * `missed_message_emails` (`shared/actions/notifications/missed-message-emails.ts`):
 * one user's batch of missed messages, mailed when it ends (its pending
 * item says when, and which messages).
 */
const missedMessageEmailsSchema = z.strictObject({ realm_id: id, user_id: id });

/**
 * `push_notification` (`shared/actions/push/push-notification.ts`): one
 * message to one idle user's phones (Zulip's `handle_push_notification`),
 * queued by the `message_notifications` decision for users with devices.
 */
const pushNotificationSchema = z.strictObject({
  realm_id: id,
  user_id: id,
  message_id: id,
  /** The decision's trigger (`NotificationTrigger` of `shared/domain/notification-data.ts`). */
  trigger: z.string().min(1).max(64),
  /** The user group whose mention notified the user (absent for personal mentions and other triggers). */
  mentioned_user_group_id: id.optional(),
});

/**
 * `push_removal` (`shared/actions/push/push-removal.ts`): messages the user
 * read (or that were deleted) while their notifications were on the phone
 * (Zulip's `handle_remove_push_notification`).
 */
const pushRemovalSchema = z.strictObject({ realm_id: id, user_id: id, message_ids: ids.min(1).max(1000) });

/** Jobs without a payload: the daily sweeps the EventBridge schedules enqueue. */
const noPayload = z.strictObject({});

const job = <K extends string, P extends z.ZodType>(kind: K, payload: P) => z.strictObject({ kind: z.literal(kind), payload });

/** One deferred job: `kind` names its runner, `payload` is that kind's. */
export const deferredJobSchema = z.union([
  job("fanout_event", fanoutEventSchema),
  job("write_user_messages", writeUserMessagesSchema),
  job("expand_stream_message", expandStreamMessageSchema),
  job("index_message", indexMessageSchema),
  job("mark_as_read", markAsReadSchema),
  job("move_messages", moveMessagesSchema),
  job("delete_messages", deleteMessagesSchema),
  job("delete_realm", deleteRealmSchema),
  /** The demo-organization sweep (`shared/actions/realms/demo-organizations.ts`). */
  job("sweep_demo_organizations", noPayload),
  /** A deleted message's attachment claims released, files only it claimed deleted (`shared/actions/uploads/claim.ts`). */
  job("release_attachment_claims", z.strictObject({ realm_id: id, message_id: id })),
  /** The sweep of uploads no message claimed for weeks (`shared/actions/uploads/sweep.ts`). */
  job("sweep_unclaimed_attachments", noPayload),
  job("thumbnail", thumbnailSchema),
  /** A public data export to write (`shared/actions/realms/export-job.ts`). */
  job("realm_export", z.strictObject({ realm_id: id, export_id: id })),
  /** A deleted export's tarball to remove from the files bucket (`shared/actions/realms/export-job.ts`). */
  job("delete_export_tarball", z.strictObject({ export_path: z.string() })),
  job("send_scheduled_message", sendScheduledMessageSchema),
  job("send_email", sendEmailSchema),
  job("ses_feedback", sesFeedbackSchema),
  job("incoming_email", incomingEmailSchema),
  job("message_notifications", messageNotificationsSchema),
  job("missed_message_emails", missedMessageEmailsSchema),
  job("push_notification", pushNotificationSchema),
  job("push_removal", pushRemovalSchema),
  /** A deactivated user's devices unregistered at the push notification service (`shared/actions/push/devices.ts`). */
  job("push_unregister_all", z.strictObject({ realm_id: id, user_id: id })),
  /**
   * The organizations and their user counts reported to the push notification
   * service, and its word on each one's plan stored (`shared/actions/push/server-data.ts`;
   * daily, and after the server registers).
   */
  job("push_bouncer_update", noPayload),
]);

/** A deferred job as producers enqueue it and runners receive it. */
export type DeferredJob = z.infer<typeof deferredJobSchema>;

/** The name of a kind of deferred job. */
export type JobKind = DeferredJob["kind"];

/** The job of one kind. */
export type JobOf<K extends JobKind> = Extract<DeferredJob, { kind: K }>;

/** The payload of one kind of job. */
export type JobPayload<K extends JobKind> = JobOf<K>["payload"];

/** Every job kind, in the schema's order (for the registry's runtime check). */
export const JOB_KINDS: readonly JobKind[] = deferredJobSchema.options.map((o) => o.shape.kind.value);

/**
 * Reads one SQS message body as a job.
 * @param body the message body: the JSON of a {@link DeferredJob}
 * @returns the job, typed by its kind
 * @throws Error `Malformed deferred job: …` when the body is not JSON, names no
 *   known kind, or carries a payload its kind's schema refuses (the worker
 *   reports the record as failed; SQS moves it to the dead-letter queue)
 */
export function parseDeferredJob(body: string): DeferredJob {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (err) {
    throw new Error(`Malformed deferred job: ${err instanceof Error ? err.message : String(err)}`);
  }
  const parsed = deferredJobSchema.safeParse(json);
  if (!parsed.success) throw new Error(`Malformed deferred job: ${parsed.error.message}`);
  return parsed.data;
}
