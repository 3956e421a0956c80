/**
 * Which log an event came from: the user's own (`U`), the realm's
 * public-stream log (`R`), the realm's stream-typing log (`T`), or a
 * heartbeat (`H`).
 */
export type LogSource = "U" | "R" | "T" | "H";

/**
 * An event delivered by a queue but not yet acknowledged: its queue-local
 * ID and where to read it again (the log item's sort key and, for log
 * items that expand into several events, which one).
 */
export interface PendingEvent {
  /** Queue-local event ID. */
  i: number;
  s: LogSource;
  /** Sort key of the log item (absent for heartbeats). */
  k?: string;
  /** Index among the events one log item expands into. */
  p?: number;
}

/** The `client_capabilities` of `POST /register` the server acts on. */
export interface ClientCapabilities {
  notification_settings_null: boolean;
  bulk_message_deletion: boolean;
  user_avatar_url_field_optional: boolean;
  stream_typing_notifications: boolean;
  user_settings_object: boolean;
  linkifier_url_template: boolean;
  user_list_incomplete: boolean;
}

/**
 * One term of an event queue's `narrow` as stored: `[operator, operand]`,
 * as the client sent it (`shared/events/narrow.ts` reads it as a `NarrowTerm`).
 */
export type NarrowPair = [operator: string, operand: string];

/** What a queue was registered with; fixed for the queue's life. */
export interface QueueOptions {
  /** Event types the queue accepts; null for every type. */
  event_types: string[] | null;
  /** `[operator, operand]` pairs filtering message events. */
  narrow: NarrowPair[];
  all_public_streams: boolean;
  apply_markdown: boolean;
  client_gravatar: boolean;
  slim_presence: boolean;
  capabilities: ClientCapabilities;
  /** Zulip's client name of the registering request. */
  client_name: string;
}

/**
 * An event queue as stored (`keys.eventQueue`). See docs/events.md for the
 * cursor/look-back design.
 */
export interface EventQueueRecord extends QueueOptions {
  queue_id: string;
  realm_id: number;
  user_id: number;
  /** The owner's API email at registration (legacy settings events name the user by it). */
  user_email: string;
  /** Milliseconds; events written before this are part of register's snapshot and never delivered. */
  created_ms: number;
  /** Whether the queue also reads the realm's public-stream log (`all_public_streams`, or a non-guest's narrow). */
  reads_public_log: boolean;
  /** Highest user-log key consumed so far (or the creation floor). */
  log_cursor: string;
  /** Highest realm public-log key consumed so far (queues that read it). */
  public_cursor: string;
  /**
   * Where the realm's stream-typing log was last read up to (queues that
   * read it): the reader's clock at that read, since the log holds other
   * users' items this queue never consumes. Absent on queues registered
   * before the log existed (read from `log_cursor` then).
   */
  typing_cursor?: string;
  /**
   * Keys consumed within the look-back window behind each cursor, prefixed
   * with their source (`U…`, `R…`, `T…`): re-reading the window skips them.
   */
  recent_keys: string[];
  /** Next queue-local event ID to assign (Zulip starts at 0). */
  next_event_id: number;
  /** Highest acknowledged (pruned) event ID; -1 before any. */
  newest_pruned_id: number;
  pending: PendingEvent[];
  /** Milliseconds of the last request on this queue. */
  last_activity_ms: number;
  /** Incremented on every save; saves are conditional on it. */
  version: number;
}

/** One item of an event log as read back. */
export interface LogItem {
  /** Sort key: 13-digit milliseconds `#` random. */
  key: string;
  event: Record<string, unknown> & { type: string };
  /** The recipient's message flags (user log, message events). */
  flags?: string[];
  /** Realm public-log copies: non-empty flags of the recipients that have any. */
  flags_by_user?: Record<string, string[]>;
  /** User-log copy of an event also written to the realm public log. */
  public_stream?: boolean;
  /** UNIX seconds. */
  expires_at?: number;
}
