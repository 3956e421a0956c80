import { parseArgs } from "node:util";

/** Every size and duration of a bench run (durations in the unit their name says). */
export interface Sizes {
  quick: boolean;
  parts: Set<"messages" | "events" | "life" | "typing" | "lambda" | "files" | "web" | "receipts" | "scheduled" | "linkifiers">;
  /** Messages in the history table (`GET /messages` phases). */
  messages: number;
  /** Concurrent senders, and requests in flight for every closed-loop phase. */
  senders: number;
  /** Sends to the 10-subscriber stream. */
  sends: number;
  /** Sends to the 100-subscriber stream (the largest audience written inside the request). */
  mediumSends: number;
  /** Subscribers of the large stream. */
  largeSubscribers: number;
  /** Sends to the large stream (each is ~2 writes per subscriber in deferred work). */
  largeSends: number;
  /** `GET /messages` requests per narrow. */
  reads: number;
  /** Operations per kind for DynamoDB Local's raw rates. */
  rawOps: number;
  /** Long-polling clients (users, each with one queue). */
  pollers: number;
  /** Streams the pollers are spread over (1: everyone in one stream). */
  eventStreams: number;
  /** Sends per second of each delivery phase (one phase per rate). */
  eventRates: number[];
  eventSeconds: number;
  idleSeconds: number;
  /** Life part: measured operations per single-message operation and history size. */
  lifeOps: number;
  /** Life part: messages of history of the "long" stream (the short one has 100). */
  lifeHistory: number;
  /** Life part: unread messages `POST /mark_all_as_read` marks. */
  lifeUnread: number;
  /** Life part: messages of history a `change_all` topic move moves (plus its target). */
  lifeMove: number;
  /** Life part: messages of the topic a `change_all` stream move moves (its target included). */
  lifeStreamMove: number;
  /** Life part: subscribers of both streams of the stream move (each holds a row of every moved message). */
  lifeStreamMoveSubscribers: number;
  /** Typing part: subscribers of each stream typed in (one run per size). */
  typingSubscribers: number[];
  /** Typing part: notifications sent per stream size. */
  typingNotifications: number;
  /** Files part: uploads of each kind, sends of each kind and GETs of each kind. */
  filesOps: number;
  /** Receipts part: subscribers of the stream, every one of whom has read the measured message. */
  receiptReaders: number;
  /** Receipts part: `GET /messages/{id}/read_receipts` requests measured. */
  receiptReads: number;
  /** Scheduled part: `POST /scheduled_messages` requests (and not-yet-due job runs) measured. */
  scheduledCreates: number;
  /** Scheduled part: messages delivered by their jobs. */
  scheduledDeliveries: number;
  /** Linkifiers part: the organization's linkifier counts, one run each. */
  linkifierCounts: number[];
  /** Linkifiers part: `POST /messages` per linkifier count. */
  linkifierSends: number;
  /** How long to wait for deferred work to drain after a send phase, ms. */
  drainTimeoutMs: number;
  /** The whole run stops (exit code 2) after this many minutes. */
  maxMinutes: number;
  /** Also write the raw results as JSON to this file. */
  json: string | undefined;
}

const FULL: Omit<Sizes, "quick" | "parts" | "json"> = {
  messages: 100_000,
  senders: 8,
  sends: 1000,
  mediumSends: 200,
  largeSubscribers: 10_000,
  largeSends: 10,
  reads: 200,
  rawOps: 3000,
  pollers: 500,
  eventStreams: 1,
  eventRates: [1, 2],
  eventSeconds: 20,
  idleSeconds: 60,
  lifeOps: 100,
  lifeHistory: 5000,
  lifeUnread: 5000,
  lifeMove: 2000,
  lifeStreamMove: 2000,
  lifeStreamMoveSubscribers: 40,
  typingSubscribers: [100, 500],
  typingNotifications: 20,
  filesOps: 20,
  receiptReaders: 10_000,
  receiptReads: 20,
  scheduledCreates: 50,
  scheduledDeliveries: 20,
  linkifierCounts: [0, 10, 100],
  linkifierSends: 100,
  drainTimeoutMs: 240_000,
  maxMinutes: 15,
};

const QUICK: Omit<Sizes, "quick" | "parts" | "json"> = {
  messages: 5000,
  senders: 8,
  sends: 150,
  mediumSends: 30,
  largeSubscribers: 500,
  largeSends: 10,
  reads: 40,
  rawOps: 800,
  pollers: 100,
  eventStreams: 1,
  eventRates: [2],
  eventSeconds: 8,
  idleSeconds: 21,
  lifeOps: 10,
  lifeHistory: 2000,
  lifeUnread: 1200,
  lifeMove: 500,
  lifeStreamMove: 300,
  lifeStreamMoveSubscribers: 40,
  typingSubscribers: [100, 500],
  typingNotifications: 6,
  filesOps: 5,
  receiptReaders: 1000,
  receiptReads: 10,
  scheduledCreates: 10,
  scheduledDeliveries: 5,
  linkifierCounts: [0, 10, 100],
  linkifierSends: 15,
  drainTimeoutMs: 60_000,
  maxMinutes: 8,
};

/** Every part `--parts` accepts, in the order they run. */
export const ALL_PARTS = ["messages", "events", "life", "typing", "lambda", "files", "web", "receipts", "scheduled", "linkifiers"] as const;

export const USAGE = `npm run bench -- [--quick] [options]

  --quick                 ~2.5-minute smoke run with small sizes (life alone ~30 s, typing ~1 min)
  --parts LIST            ${ALL_PARTS.join(",")} (default all)
  --messages N            messages in the history table (${FULL.messages}; quick ${QUICK.messages})
  --senders N             concurrent senders / requests in flight (${FULL.senders})
  --sends N               sends to the 10-subscriber stream (${FULL.sends}; quick ${QUICK.sends})
  --medium-sends N        sends to the 100-subscriber stream (${FULL.mediumSends}; quick ${QUICK.mediumSends})
  --large-subscribers N   subscribers of the large stream (${FULL.largeSubscribers}; quick ${QUICK.largeSubscribers})
  --large-sends N         sends to the large stream (${FULL.largeSends}; quick ${QUICK.largeSends})
  --reads N               GET /messages requests per narrow (${FULL.reads}; quick ${QUICK.reads})
  --raw-ops N             DynamoDB Local raw operations per kind (${FULL.rawOps}; min 800)
  --pollers N             long-polling clients (${FULL.pollers}; quick ${QUICK.pollers})
  --event-streams N       streams the pollers are spread over (${FULL.eventStreams})
  --event-rate LIST       sends per second while they poll, one phase per rate (${FULL.eventRates.join(",")}; quick ${QUICK.eventRates.join(",")})
  --event-seconds N       length of the delivery phase (${FULL.eventSeconds}; quick ${QUICK.eventSeconds})
  --idle-seconds N        length of the idle phase (${FULL.idleSeconds}; quick ${QUICK.idleSeconds})
  --life-ops N            life: measured operations per single-message operation and history size (${FULL.lifeOps}; quick ${QUICK.lifeOps})
  --life-history N        life: messages of history of the long stream, against 100 (${FULL.lifeHistory}; quick ${QUICK.lifeHistory})
  --life-unread N         life: unread messages for POST /mark_all_as_read (${FULL.lifeUnread}; quick ${QUICK.lifeUnread})
  --life-move N           life: messages a change_all topic move moves (${FULL.lifeMove}; quick ${QUICK.lifeMove})
  --life-stream-move N    life: messages a change_all move to another stream moves (${FULL.lifeStreamMove}; quick ${QUICK.lifeStreamMove})
  --life-stream-move-subscribers N  life: subscribers of both streams of that move (${FULL.lifeStreamMoveSubscribers})
  --typing-subscribers L typing: subscribers of each stream typed in, one run per size (${FULL.typingSubscribers.join(",")})
  --typing-notifications N typing: notifications per stream size (${FULL.typingNotifications}; quick ${QUICK.typingNotifications})
  --files-ops N           files: uploads, sends and GETs of each kind (${FULL.filesOps}; quick ${QUICK.filesOps})
  --receipt-readers N     receipts: subscribers who read the message (${FULL.receiptReaders}; quick ${QUICK.receiptReaders})
  --receipt-reads N       receipts: GET /messages/{id}/read_receipts measured (${FULL.receiptReads}; quick ${QUICK.receiptReads})
  --scheduled-creates N   scheduled: POST /scheduled_messages and not-yet-due job runs (${FULL.scheduledCreates}; quick ${QUICK.scheduledCreates})
  --scheduled-deliveries N scheduled: messages delivered by their jobs (${FULL.scheduledDeliveries}; quick ${QUICK.scheduledDeliveries})
  --linkifier-counts L    linkifiers: the organization's linkifier counts, one run each (${FULL.linkifierCounts.join(",")}; at most 100)
  --linkifier-sends N     linkifiers: POST /messages per count (${FULL.linkifierSends}; quick ${QUICK.linkifierSends})
  --max-minutes N         hard stop for the whole run (${FULL.maxMinutes}; quick ${QUICK.maxMinutes})
  --json FILE             also write the raw results as JSON`;

/**
 * Parses the bench's flags (`--quick` picks the smoke sizes; any explicit
 * flag overrides them).
 * @throws Error on an unknown flag or a non-positive number
 */
export function parseSizes(argv: string[]): Sizes | "help" {
  const num = { type: "string" } as const;
  const { values } = parseArgs({
    args: argv,
    options: {
      help: { type: "boolean", short: "h" },
      quick: { type: "boolean" },
      parts: { type: "string" },
      messages: num,
      senders: num,
      sends: num,
      "medium-sends": num,
      "large-subscribers": num,
      "large-sends": num,
      reads: num,
      "raw-ops": num,
      pollers: num,
      "event-streams": num,
      "event-rate": num,
      "event-seconds": num,
      "idle-seconds": num,
      "life-ops": num,
      "life-history": num,
      "life-unread": num,
      "life-move": num,
      "life-stream-move": num,
      "life-stream-move-subscribers": num,
      "typing-subscribers": num,
      "typing-notifications": num,
      "files-ops": num,
      "receipt-readers": num,
      "receipt-reads": num,
      "scheduled-creates": num,
      "scheduled-deliveries": num,
      "linkifier-counts": num,
      "linkifier-sends": num,
      "max-minutes": num,
      json: { type: "string" },
    },
    strict: true,
  });
  if (values.help) return "help";
  const base = values.quick ? QUICK : FULL;
  const n = (name: keyof typeof values, fallback: number, min = 1): number => {
    const raw = values[name];
    if (raw === undefined) return fallback;
    const v = Number(raw);
    if (!Number.isFinite(v) || v < min) throw new Error(`--${name} must be a number ≥ ${min}, got ${String(raw)}`);
    return v;
  };
  const parts = new Set((values.parts ?? ALL_PARTS.join(",")).split(",").map((p) => p.trim()));
  for (const p of parts) {
    if (!(ALL_PARTS as readonly string[]).includes(p)) throw new Error(`--parts: unknown part ${p}`);
  }
  return {
    quick: values.quick === true,
    parts: parts as Sizes["parts"],
    messages: Math.round(n("messages", base.messages, 100)),
    senders: Math.round(n("senders", base.senders)),
    sends: Math.round(n("sends", base.sends)),
    mediumSends: Math.round(n("medium-sends", base.mediumSends)),
    largeSubscribers: Math.round(n("large-subscribers", base.largeSubscribers, 101)),
    largeSends: Math.round(n("large-sends", base.largeSends)),
    reads: Math.round(n("reads", base.reads)),
    rawOps: Math.max(800, Math.round(n("raw-ops", base.rawOps))),
    pollers: Math.round(n("pollers", base.pollers)),
    eventStreams: Math.round(n("event-streams", base.eventStreams)),
    eventRates: rates(values["event-rate"], base.eventRates),
    eventSeconds: n("event-seconds", base.eventSeconds),
    idleSeconds: n("idle-seconds", base.idleSeconds),
    lifeOps: Math.round(n("life-ops", base.lifeOps)),
    lifeHistory: Math.round(n("life-history", base.lifeHistory, 100)),
    lifeUnread: Math.round(n("life-unread", base.lifeUnread)),
    lifeMove: Math.round(n("life-move", base.lifeMove)),
    lifeStreamMove: Math.round(n("life-stream-move", base.lifeStreamMove, 2)),
    lifeStreamMoveSubscribers: Math.round(n("life-stream-move-subscribers", base.lifeStreamMoveSubscribers)),
    typingSubscribers: sizeList(values["typing-subscribers"], base.typingSubscribers),
    typingNotifications: Math.round(n("typing-notifications", base.typingNotifications)),
    filesOps: Math.round(n("files-ops", base.filesOps)),
    receiptReaders: Math.round(n("receipt-readers", base.receiptReaders, 2)),
    receiptReads: Math.round(n("receipt-reads", base.receiptReads)),
    scheduledCreates: Math.round(n("scheduled-creates", base.scheduledCreates)),
    scheduledDeliveries: Math.round(n("scheduled-deliveries", base.scheduledDeliveries)),
    linkifierCounts: linkifierCounts(values["linkifier-counts"], base.linkifierCounts),
    linkifierSends: Math.round(n("linkifier-sends", base.linkifierSends)),
    drainTimeoutMs: base.drainTimeoutMs,
    maxMinutes: n("max-minutes", base.maxMinutes),
    json: values.json,
  };
}

function sizeList(raw: string | undefined, fallback: number[]): number[] {
  if (raw === undefined) return fallback;
  const list = raw.split(",").map((x) => Number(x.trim()));
  if (list.length === 0 || list.some((x) => !Number.isInteger(x) || x < 2)) throw new Error(`--typing-subscribers must be integers ≥ 2, got ${raw}`);
  return list;
}

function linkifierCounts(raw: string | undefined, fallback: number[]): number[] {
  if (raw === undefined) return fallback;
  const list = raw.split(",").map((x) => Number(x.trim()));
  if (list.some((x) => !Number.isInteger(x) || x < 0 || x > 100)) throw new Error(`--linkifier-counts must be integers 0..100, got ${raw}`);
  return list;
}

function rates(raw: string | undefined, fallback: number[]): number[] {
  if (raw === undefined) return fallback;
  const list = raw.split(",").map((x) => Number(x.trim()));
  if (list.length === 0 || list.some((x) => !Number.isFinite(x) || x < 0.1)) throw new Error(`--event-rate must be numbers ≥ 0.1, got ${raw}`);
  return list;
}

/** The sizes as one header line. */
export function sizesLine(s: Sizes): string {
  const parts: string[] = [];
  if (s.parts.has("messages")) {
    parts.push(
      `messages=${s.messages} senders=${s.senders} sends=${s.sends} medium-sends=${s.mediumSends} large-subscribers=${s.largeSubscribers} large-sends=${s.largeSends} reads=${s.reads} raw-ops=${s.rawOps}`,
    );
  }
  if (s.parts.has("events")) {
    parts.push(`pollers=${s.pollers} event-streams=${s.eventStreams} event-rate=${s.eventRates.join(",")}/s event-seconds=${s.eventSeconds} idle-seconds=${s.idleSeconds}`);
  }
  if (s.parts.has("life")) {
    parts.push(`life-ops=${s.lifeOps} life-history=${s.lifeHistory} life-unread=${s.lifeUnread} life-move=${s.lifeMove} life-stream-move=${s.lifeStreamMove}x${s.lifeStreamMoveSubscribers}`);
  }
  if (s.parts.has("typing")) parts.push(`typing-subscribers=${s.typingSubscribers.join(",")} typing-notifications=${s.typingNotifications}`);
  if (s.parts.has("files")) parts.push(`files-ops=${s.filesOps}`);
  if (s.parts.has("web")) parts.push("web");
  if (s.parts.has("receipts")) parts.push(`receipt-readers=${s.receiptReaders} receipt-reads=${s.receiptReads}`);
  if (s.parts.has("scheduled")) parts.push(`scheduled-creates=${s.scheduledCreates} scheduled-deliveries=${s.scheduledDeliveries}`);
  if (s.parts.has("linkifiers")) parts.push(`linkifier-counts=${s.linkifierCounts.join(",")} linkifier-sends=${s.linkifierSends}`);
  return `${s.quick ? "--quick " : ""}${parts.join(" ")}`;
}
