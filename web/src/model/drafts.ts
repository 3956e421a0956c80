/**
 * Drafts (https://zulip.com/help/view-and-edit-your-message-drafts): the
 * reader's unsent messages, kept by the server while the
 * `enable_drafts_synchronization` setting is on (https://zulip.com/api/get-drafts):
 * register's `drafts`, the `drafts` events (add, update, remove), and
 * {@link DraftSync}, which writes the compose box's text as a draft while the
 * person types (`POST /drafts`, `PATCH /drafts/{id}`, `DELETE /drafts/{id}`),
 * one draft per conversation. Pure state functions plus one small writer.
 */
import type { ParamValue } from "../api/client.js";
import type { DeliveredEvent } from "./types.js";

/** A draft on the wire (`timestamp` UNIX seconds; `to` a stream ID alone, or the other people's IDs). */
export type Draft = DeliveredEvent<"drafts/update">["draft"];

/** The reader's drafts by ID. */
export type DraftState = ReadonlyMap<number, Draft>;

/** A `drafts` event of any op. */
export type DraftEvent = DeliveredEvent<"drafts/add"> | DeliveredEvent<"drafts/update"> | DeliveredEvent<"drafts/remove">;

/** Where a draft goes (as compose holds it). */
export type DraftTarget = { type: "stream"; stream_id: number; topic: string } | { type: "private"; user_ids: number[] };

/** The drafts from register's `drafts` (absent: empty). */
export function draftsFromRegister(raw: unknown): DraftState {
  const list = Array.isArray(raw) ? (raw as Draft[]) : [];
  return new Map(list.map((d) => [d.id, d]));
}

/** Applies a `drafts` event (https://zulip.com/api/get-events#drafts-add): add each, replace one, remove one. */
export function applyDraftEvent(state: DraftState, event: DraftEvent): DraftState {
  const next = new Map(state);
  if (event.op === "add") for (const d of event.drafts) next.set(d.id, d);
  else if (event.op === "update") next.set(event.draft.id, event.draft);
  else if (!next.delete(event.draft_id)) return state;
  return next;
}

/** The drafts newest first (as Zulip's drafts view lists them). */
export function sortedDrafts(state: DraftState): Draft[] {
  return [...state.values()].sort((a, b) => b.timestamp - a.timestamp || b.id - a.id);
}

/**
 * The conversation a draft or compose target belongs to: `stream:<id>:<topic
 * lowercased>` or `dm:<sorted other IDs>` (the reader's own ID for notes to
 * self); `""` for an unaddressed draft.
 */
export function draftKey(where: Draft | DraftTarget, myUserId: number): string {
  if (where.type === "stream") {
    const streamId = "stream_id" in where ? where.stream_id : where.to[0];
    return `stream:${streamId}:${where.topic.trim().toLowerCase()}`;
  }
  if (where.type === "private") {
    const ids = "user_ids" in where ? where.user_ids : where.to;
    const others = [...new Set(ids)].filter((id) => id !== myUserId).sort((a, b) => a - b);
    return ids.length === 0 ? "" : `dm:${(others.length ? others : [myUserId]).join(",")}`;
  }
  return "";
}

/** The newest draft of a conversation, if any. */
export function draftFor(state: DraftState, target: DraftTarget, myUserId: number): Draft | undefined {
  const key = draftKey(target, myUserId);
  return key === "" ? undefined : sortedDrafts(state).find((d) => draftKey(d, myUserId) === key);
}

/** Where a draft goes, in compose's terms; null for an unaddressed draft. */
export function draftTarget(d: Draft): DraftTarget | null {
  if (d.type === "stream" && d.to[0] !== undefined) return { type: "stream", stream_id: d.to[0], topic: d.topic };
  if (d.type === "private" && d.to.length > 0) return { type: "private", user_ids: [...d.to] };
  return null;
}

/** The draft object `POST /drafts` and `PATCH /drafts/{id}` take (https://zulip.com/api/create-drafts). */
export function draftBody(target: DraftTarget, content: string, nowSeconds: number): Record<string, ParamValue> {
  return target.type === "stream"
    ? { type: "stream", to: [target.stream_id], topic: target.topic, content, timestamp: nowSeconds }
    : { type: "private", to: target.user_ids, topic: "", content, timestamp: nowSeconds };
}

/** What {@link DraftSync} needs: the API, the drafts the state holds, a timer and the clock. */
export interface DraftSyncDeps {
  call(method: "POST" | "PATCH" | "DELETE", path: string, params?: Record<string, ParamValue>): Promise<unknown>;
  drafts(): DraftState;
  myUserId(): number;
  /** Whether the server keeps drafts (the reader's `enable_drafts_synchronization`). */
  enabled(): boolean;
  setTimer(fn: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
  nowSeconds(): number;
}

/** How long typing must pause before the text is saved (milliseconds). */
export const DRAFT_SAVE_DELAY_MS = 1000;

/**
 * Writes the compose box's text as the draft of its conversation. One compose
 * session (from the first keystroke, or a restored draft, until the message is
 * sent or the box is emptied) owns one draft: the first save creates it (or
 * takes over the conversation's existing draft), later saves edit it (a new
 * recipient moves it), an emptied box deletes it. Writes run one at a time in
 * order; a failed write is dropped (the next edit tries again).
 */
export class DraftSync {
  private currentId: number | null = null;
  private pending: { target: DraftTarget | null; content: string } | null = null;
  private timer: unknown = null;
  private chain: Promise<void> = Promise.resolve();

  constructor(private readonly deps: DraftSyncDeps) {}

  /** The box changed: saves after {@link DRAFT_SAVE_DELAY_MS} of quiet (a recipient-less box is not saved). */
  edited(target: DraftTarget | null, content: string): void {
    this.pending = { target, content };
    if (this.timer !== null) this.deps.clearTimer(this.timer);
    this.timer = this.deps.setTimer(() => void this.flush(), DRAFT_SAVE_DELAY_MS);
  }

  /** Saves what is waiting now (closing the box, leaving the page); resolves when written. */
  flush(): Promise<void> {
    if (this.timer !== null) this.deps.clearTimer(this.timer);
    this.timer = null;
    const p = this.pending;
    this.pending = null;
    if (p) this.chain = this.chain.then(() => this.write(p.target, p.content)).catch(() => undefined);
    return this.chain;
  }

  /** Ends the compose session after a save (the box was closed and emptied): the next text starts another draft. */
  async close(): Promise<void> {
    await this.flush();
    this.currentId = null;
  }

  /**
   * The draft of the conversation compose opens for, which the session now
   * owns; undefined when there is none.
   */
  take(target: DraftTarget | null): Draft | undefined {
    if (!target || !this.deps.enabled()) return undefined;
    const d = draftFor(this.deps.drafts(), target, this.deps.myUserId());
    if (d) this.currentId = d.id;
    return d;
  }

  /** Makes a draft (restored from the drafts view) the session's own. */
  adopt(id: number): void {
    this.pending = null;
    this.currentId = id;
  }

  /** The message was sent (or scheduled): its draft is deleted and the session ends. */
  sent(): Promise<void> {
    this.pending = null;
    if (this.timer !== null) this.deps.clearTimer(this.timer);
    this.timer = null;
    this.chain = this.chain.then(async () => {
      const id = this.currentId;
      this.currentId = null;
      if (id !== null) await this.deps.call("DELETE", `/drafts/${id}`);
    }).catch(() => undefined);
    return this.chain;
  }

  /** Deletes a draft (the drafts view's "Delete"); the session forgets it when it owned it. */
  async remove(id: number): Promise<void> {
    if (this.currentId === id) this.currentId = null;
    await this.deps.call("DELETE", `/drafts/${id}`);
  }

  private async write(target: DraftTarget | null, content: string): Promise<void> {
    if (!this.deps.enabled()) return;
    if (content.trim() === "") {
      const id = this.currentId;
      this.currentId = null;
      if (id !== null) await this.deps.call("DELETE", `/drafts/${id}`);
      return;
    }
    if (!target) return;
    const id = this.currentId ?? draftFor(this.deps.drafts(), target, this.deps.myUserId())?.id ?? null;
    const draft = draftBody(target, content, this.deps.nowSeconds());
    if (id !== null) {
      this.currentId = id;
      try {
        await this.deps.call("PATCH", `/drafts/${id}`, { draft });
        return;
      } catch {
        // Deleted meanwhile (in another tab, or from the drafts view): a new draft takes its place.
        this.currentId = null;
      }
    }
    const r = (await this.deps.call("POST", "/drafts", { drafts: [draft] })) as { ids?: number[] };
    this.currentId = r.ids?.[0] ?? null;
  }
}
