import type { Store } from "../../shared/data/client.js";
import { originOfCurrentCall, type Origin } from "./meter.js";

/**
 * Where event delivery time goes: a second middleware on the stack's
 * document client that notices the BatchWriteItem calls writing `message`
 * events whose content carries a bench send instant (`bench-ts=<ms>`), and
 * records when the first such write started and the last one ended. With
 * the send instant and the clients' arrival times this splits delivery
 * latency into "until the events are written" and "from written to the
 * client". Times are wall-clock milliseconds (`performance.timeOrigin +
 * performance.now()`), comparable with the driver thread's.
 */
export class EventWriteProbe {
  /**
   * Send instant (as written in the content) → first write start, last
   * write end, per origin: a large audience's copies are written by jobs
   * (the sender's own copy by the request), a small one's by the request.
   */
  readonly writes: Record<Origin, Map<string, EventWrites>> = { request: new Map(), deferred: new Map() };

  /** The writes that reached the recipients of a send: the jobs' when there were any, else the request's. */
  fanoutWrites(ts: string): EventWrites | undefined {
    return this.writes.deferred.get(ts) ?? this.writes.request.get(ts);
  }

  install(db: Store["db"]): void {
    db.middlewareStack.add(
      (next, context) => async (args) => {
        // Seen under the low-level command's name, with the document client's
        // (not yet marshalled) input: marshalling happens just before serialization.
        if ((context as { commandName?: string }).commandName !== "BatchWriteItemCommand") return next(args);
        const found = new Map<string, number>();
        const requests = (args.input as { RequestItems?: Record<string, { PutRequest?: { Item?: Record<string, any> } }[]> }).RequestItems ?? {};
        for (const list of Object.values(requests)) {
          for (const r of list) {
            const item = r.PutRequest?.Item;
            if (item?.type !== "event" || item.event?.type !== "message") continue;
            // `rc` is `raw_content` in the stored (compact) form of a message event (`shared/data/event-codec.ts`).
            const ts = /bench-ts=(\d+(?:\.\d+)?)/.exec(String(item.event.raw_content ?? item.event.rc ?? ""))?.[1];
            if (ts) found.set(ts, (found.get(ts) ?? 0) + 1);
          }
        }
        if (found.size === 0) return next(args);
        const writes = this.writes[originOfCurrentCall()];
        const start = performance.timeOrigin + performance.now();
        const out = await next(args);
        const end = performance.timeOrigin + performance.now();
        for (const [ts, n] of found) {
          const w = writes.get(ts);
          if (!w) writes.set(ts, { firstStart: start, lastEnd: end, items: n });
          else {
            w.firstStart = Math.min(w.firstStart, start);
            w.lastEnd = Math.max(w.lastEnd, end);
            w.items += n;
          }
        }
        return out;
      },
      { step: "initialize", name: "benchEventWriteProbe", priority: "high" },
    );
  }
}

/** When the event copies of one send were written (wall-clock ms) and how many. */
export interface EventWrites {
  firstStart: number;
  lastEnd: number;
  items: number;
}

/**
 * The SQS half of the delivery breakdown: a middleware on the local
 * stack's SQS client (shared by the enqueuer and the in-process consumer)
 * that records, per message ID, when its first `write_user_messages` job
 * was accepted by the queue and when the consumer received it (wall-clock ms).
 */
export class JobProbe {
  readonly enqueued = new Map<number, number>();
  readonly received = new Map<number, number>();

  install(sqs: { middlewareStack: { add: (...args: any[]) => void } }): void {
    sqs.middlewareStack.add(
      (next: (args: any) => Promise<any>, context: { commandName?: string }) => async (args: any) => {
        const out = await next(args);
        const at = performance.timeOrigin + performance.now();
        const note = (map: Map<number, number>, body: string | undefined) => {
          if (!body || !body.includes('"write_user_messages"')) return;
          try {
            const job = JSON.parse(body) as { kind: string; payload: { message_id?: number } };
            const id = job.payload.message_id;
            if (job.kind === "write_user_messages" && typeof id === "number" && !map.has(id)) map.set(id, at);
          } catch {
            // not a job body
          }
        };
        if (context.commandName === "SendMessageBatchCommand") {
          for (const e of (args.input.Entries ?? []) as { MessageBody?: string }[]) note(this.enqueued, e.MessageBody);
        } else if (context.commandName === "ReceiveMessageCommand") {
          for (const m of (out.output?.Messages ?? []) as { Body?: string }[]) note(this.received, m.Body);
        }
        return out;
      },
      { step: "initialize", name: "benchJobProbe", priority: "high" },
    );
  }
}
