/**
 * The signed-in app's controller, view-free: it owns the client state
 * (store.ts), the open view's message list (messages.ts), the event-queue
 * loop (queue.ts) and read marking (read.ts), performs the API calls the
 * views ask for, and tells subscribers when anything changed. Views read
 * {@link Chat.snapshot} and call its methods.
 */
import type { ApiClient } from "../api/client.js";
import {
  addLiveMessage,
  addLocalEcho,
  applyDeleteMessage,
  applyFlags,
  applyPage,
  applyReaction,
  applyUpdateMessage,
  catchUpParams,
  emptyList,
  firstPageParams,
  newerPageParams,
  olderPageParams,
  removeLocalEcho,
  type FetchResult,
  type MessageList,
} from "./messages.js";
import { viewKey, viewMarksRead, type View } from "./narrow.js";
import { EventQueueLoop } from "./queue.js";
import { ReadTracker } from "./read.js";
import {
  applyEvent,
  applyPresences,
  matchContext,
  registerParams,
  serverMs,
  setTopics,
  stateFromRegister,
  type ChatState,
  type Topic,
} from "./store.js";
import type { Message, Reaction, ServerEvent } from "./types.js";
import { applySubmessageEvent } from "./widgets.js";
import { buildLocalEcho, type SendTarget } from "./local-echo.js";
import { refilterForMuting } from "./topics.js";

export type { SendTarget } from "./local-echo.js";

/** What the views render. */
export interface ChatSnapshot {
  /** Null until the first registration answers. */
  state: ChatState | null;
  view: View;
  list: MessageList;
  /** A page request is in flight at that end. */
  loadingOlder: boolean;
  loadingNewer: boolean;
  /** The last failure to show (reconnecting, a failed page). */
  notice: string | null;
  /** The session ended (401): the app shows the sign-in page. */
  signedOut: boolean;
}

/** Injected time and timers, so the controller runs under test. */
export interface ChatClock {
  now(): number;
  sleep(ms: number): Promise<void>;
  schedule(fn: () => void, ms: number): void;
  random(): number;
}

/** The browser's clock. */
export const browserClock: ChatClock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  schedule: (fn, ms) => void setTimeout(fn, ms),
  random: () => Math.random(),
};

/**
 * How often the app reports the reader's presence (milliseconds). Zulip's web
 * app pings about once a minute; a person counts as active for 140 s after a ping.
 */
export const PRESENCE_PING_MS = 50_000;

/** The controller; `start()` once, `stop()` on sign-out or unmount. */
export class Chat {
  private snap: ChatSnapshot;
  private stopped = false;
  private pinging = false;
  private listeners = new Set<() => void>();
  private eventListeners = new Set<(events: ServerEvent[], snap: ChatSnapshot, before: MessageList) => void>();
  private loop: EventQueueLoop;
  private reads: ReadTracker;
  private localSeq = 0;
  private fetchToken = 0;
  /** Whether a queue has been registered (a first page fetched from now on cannot miss a message: events bring what it did not read). */
  private registered = false;
  private queueReady: Promise<void>;
  private markQueueReady: () => void = () => undefined;
  /** The view (its key) where reading is paused after "Mark as unread from here", until another view opens. */
  private readingPausedIn: string | null = null;

  constructor(
    /** The API client, for views that call the server themselves (compose previews). */
    readonly api: ApiClient,
    view: View,
    private readonly clock: ChatClock = browserClock,
    /** Whether the reader is using the app now (the window has focus): presence says "active", else "idle". */
    private readonly isActive: () => boolean = () => true,
  ) {
    this.queueReady = new Promise((resolve) => (this.markQueueReady = resolve));
    this.snap = { state: null, view, list: emptyList(view), loadingOlder: false, loadingNewer: false, notice: null, signedOut: false };
    this.loop = new EventQueueLoop({
      api,
      registerParams: registerParams(),
      onRegister: (raw, again) => {
        const first = !this.registered;
        this.registered = true;
        this.set({ state: stateFromRegister(raw), notice: null });
        this.markQueueReady();
        // The first queue: the open view's first page is already on its way (start()). A queue that
        // replaces a lost one may have missed events: the open view is fetched again from scratch.
        if (!first || again) void this.open(this.snap.view, true);
        if (!this.pinging) {
          this.pinging = true;
          this.clock.schedule(() => void this.pingPresence(), 0);
        }
      },
      onEvents: (events) => this.applyEvents(events),
      onSignedOut: () => this.set({ signedOut: true }),
      onRetry: () => this.set({ notice: "Reconnecting…" }),
      sleep: clock.sleep,
      random: clock.random,
    });
    this.reads = new ReadTracker({
      api,
      schedule: clock.schedule,
      onMarked: (ids) =>
        this.applyEvents([{ id: -1, type: "update_message_flags", op: "add", operation: "add", flag: "read", messages: ids, all: false }]),
    });
  }

  /** The current snapshot (a new object after every change). */
  get snapshot(): ChatSnapshot {
    return this.snap;
  }

  /** Calls `fn` after every change; returns the unsubscribe function. */
  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /**
   * Registers and follows the event queue and, at the same time, fetches the
   * open view's first page: the narrow comes from the URL, so the page need
   * not wait for `POST /register` (see {@link Chat.open} for the messages
   * sent between the two).
   */
  start(): void {
    void this.loop.start();
    void this.open(this.snap.view, true);
  }

  /**
   * Calls `fn` with each batch of events from the queue, after they are
   * applied (`snap`: the new snapshot; `before`: the open view's list before
   * them), for what reacts to events beyond the state (notifications, following
   * a moved topic). Returns the unsubscribe function.
   */
  onEvents(fn: (events: ServerEvent[], snap: ChatSnapshot, before: MessageList) => void): () => void {
    this.eventListeners.add(fn);
    return () => this.eventListeners.delete(fn);
  }

  /** Stops the queue loop and the presence pings. */
  stop(): void {
    this.stopped = true;
    this.loop.stop();
  }

  /**
   * Reports the reader's presence (`POST /users/me/presence`,
   * https://zulip.com/api/update-presence, `slim_presence`) and takes the
   * organization's presence from the answer; again after the server's
   * `server_presence_ping_interval_seconds` (register), else {@link PRESENCE_PING_MS}.
   * A failed ping changes nothing (the next one tries again).
   */
  private async pingPresence(): Promise<void> {
    if (this.stopped) return;
    const active = this.isActive();
    try {
      const r = await this.api.call<{ presences?: Record<string, unknown> }>("POST", "/users/me/presence", {
        status: active ? "active" : "idle",
        new_user_input: active,
        slim_presence: true,
      });
      if (r.presences && this.snap.state && !this.stopped) this.set({ state: applyPresences(this.snap.state, r.presences) });
    } catch {
      // Offline or refused: presence is best effort, the next ping tries again.
    }
    const seconds = this.snap.state ? serverMs(this.snap.state, "server_presence_ping_interval_seconds") : undefined;
    if (!this.stopped) this.clock.schedule(() => void this.pingPresence(), seconds ? seconds * 1000 : PRESENCE_PING_MS);
  }

  private set(change: Partial<ChatSnapshot>): void {
    this.snap = { ...this.snap, ...change };
    for (const fn of this.listeners) fn();
  }

  private applyEvents(events: ServerEvent[]): void {
    let state: ChatState | null = this.snap.state;
    let list: MessageList = this.snap.list;
    if (!state) return;
    const lookup = (id: number) => list.messages.find((m) => m.id === id);
    for (const event of events) {
      // A local change (id -1) must not move the queue's last event ID.
      const before: number = state.lastEventId;
      state = applyEvent(state, event, this.clock.now(), lookup);
      if (event.id < 0) state = { ...state, lastEventId: before };
      const ctx = matchContext(state);
      switch (event.type) {
        case "message":
          list = addLiveMessage(list, event, ctx);
          break;
        case "update_message":
          list = applyUpdateMessage(list, event, ctx);
          break;
        case "delete_message":
          list = applyDeleteMessage(list, event);
          break;
        case "reaction":
          list = applyReaction(list, event);
          break;
        case "update_message_flags":
          list = applyFlags(list, event);
          if (event.flag === "read" && event.op === "remove") this.reads.unread(event.messages);
          break;
        case "submessage":
          list = applySubmessageEvent(list, event);
          break;
        case "user_topic":
          list = refilterForMuting(list, ctx);
          break;
      }
    }
    const before = this.snap.list;
    this.set({ state, list });
    if (events.some((e) => e.id >= 0)) for (const fn of this.eventListeners) fn(events, this.snap, before);
  }

  /**
   * Opens a view: fetches its first page (around the first unread where the
   * view marks read). A page fetched before the event queue existed may miss
   * messages sent after the server read it and before the queue was created
   * (no event brings them): once the queue is registered, the messages after
   * the newest loaded one are fetched once more ({@link catchUpParams}).
   * Those the queue also delivers merge by ID.
   */
  async open(view: View, force = false): Promise<void> {
    if (!force && viewKey(view) === viewKey(this.snap.view) && this.snap.list.loaded) return;
    if (viewKey(view) !== this.readingPausedIn) this.readingPausedIn = null;
    const token = ++this.fetchToken;
    const list = emptyList(view);
    this.set({ view, list, loadingOlder: false, loadingNewer: false });
    if (view.kind === "inbox") return;
    const beforeQueue = !this.registered;
    try {
      const result = await this.api.call<FetchResult>("GET", "/messages", firstPageParams(list, viewMarksRead(view)));
      if (token !== this.fetchToken) return;
      this.set({ list: applyPage(this.snap.list, result, "first") });
    } catch (e) {
      if (token === this.fetchToken) this.set({ notice: e instanceof Error ? e.message : String(e) });
      return;
    }
    if (beforeQueue) await this.catchUp(token);
  }

  /** Once the queue exists, fetches what was sent after the newest message of a list that reached the newest. */
  private async catchUp(token: number): Promise<void> {
    await this.queueReady;
    if (token !== this.fetchToken || !this.snap.list.foundNewest) return;
    try {
      const result = await this.api.call<FetchResult>("GET", "/messages", catchUpParams(this.snap.list));
      if (token === this.fetchToken) this.set({ list: applyPage(this.snap.list, result, "newer") });
    } catch {
      // The newer end is not known to be complete: the feed fetches it as a newer page at the bottom.
      if (token === this.fetchToken) this.set({ list: { ...this.snap.list, foundNewest: false } });
    }
  }

  /** Fetches the page before the oldest loaded message (scrolling up). */
  async loadOlder(): Promise<void> {
    await this.loadPage("older");
  }

  /** Fetches the page after the newest loaded message (scrolling down in a view opened at the first unread). */
  async loadNewer(): Promise<void> {
    await this.loadPage("newer");
  }

  private async loadPage(direction: "older" | "newer"): Promise<void> {
    const flag = direction === "older" ? "loadingOlder" : "loadingNewer";
    const params = direction === "older" ? olderPageParams(this.snap.list) : newerPageParams(this.snap.list);
    if (!params || this.snap[flag]) return;
    const token = this.fetchToken;
    this.set({ [flag]: true });
    try {
      const result = await this.api.call<FetchResult>("GET", "/messages", params);
      if (token === this.fetchToken) this.set({ list: applyPage(this.snap.list, result, direction), [flag]: false });
    } catch (e) {
      if (token === this.fetchToken) this.set({ [flag]: false, notice: e instanceof Error ? e.message : String(e) });
    }
  }

  /** Replaces the state with `change(state)`: data fetched apart from the register answer (subscriber lists) joins it. */
  patchState(change: (state: ChatState) => ChatState): void {
    if (this.snap.state) this.set({ state: change(this.snap.state) });
  }

  /** Fetches a stream's topics (`GET /users/me/{stream_id}/topics`) for the sidebar. */
  async loadTopics(streamId: number): Promise<void> {
    const r = await this.api.call<{ topics: Topic[] }>("GET", `/users/me/${streamId}/topics`);
    if (this.snap.state) this.set({ state: setTopics(this.snap.state, streamId, r.topics) });
  }

  /** Reports messages seen in the viewport while the window has focus; marks them read where the open view marks read. */
  seen(ids: number[]): void {
    if (viewMarksRead(this.snap.view) && this.readingPausedIn !== viewKey(this.snap.view)) this.reads.seen(ids);
  }

  /**
   * Stops marking the open view's messages read until another view opens, as
   * Zulip's web app does after "Mark as unread from here" (else the messages
   * on screen would be read again at once).
   */
  pauseReading(): void {
    this.readingPausedIn = viewKey(this.snap.view);
  }

  /**
   * Sends a message (https://zulip.com/api/send-message): shows it at once
   * as a local echo with a `local_id`, then posts it with the queue's
   * `queue_id` and that `local_id`, so the `message` event that confirms it
   * carries `local_message_id` and replaces the echo.
   * @throws ApiError when the server refuses it (the echo is removed)
   */
  async send(target: SendTarget, content: string): Promise<void> {
    const state = this.snap.state;
    if (!state) throw new Error("Not connected yet.");
    const newest = this.snap.list.messages.at(-1)?.id ?? 0;
    this.localSeq += 1;
    const localId = (newest + this.localSeq / 1000).toFixed(3);
    const echo = buildLocalEcho(state, target, content, localId, this.clock.now());
    this.set({ list: addLocalEcho(this.snap.list, echo, matchContext(state)) });
    try {
      await this.api.call("POST", "/messages", {
        type: target.type === "stream" ? "stream" : "direct",
        to: target.type === "stream" ? target.stream_id : target.user_ids,
        ...(target.type === "stream" ? { topic: target.topic } : {}),
        content,
        queue_id: this.loop.currentQueueId,
        local_id: localId,
      });
    } catch (e) {
      this.set({ list: removeLocalEcho(this.snap.list, localId) });
      throw e;
    }
  }

  /** Adds or removes the reader's reaction (`POST`/`DELETE /messages/{id}/reactions`); the event updates the list. */
  async toggleReaction(message: Message, reaction: Pick<Reaction, "emoji_name" | "emoji_code" | "reaction_type">): Promise<void> {
    const me = this.snap.state?.me.user_id;
    const mine = message.reactions.some((r) => r.user_id === me && r.emoji_code === reaction.emoji_code && r.reaction_type === reaction.reaction_type);
    // Only the emoji's three fields: a caller may pass a group of reactions that carries more.
    const { emoji_name, emoji_code, reaction_type } = reaction;
    await this.api.call(mine ? "DELETE" : "POST", `/messages/${message.id}/reactions`, { emoji_name, emoji_code, reaction_type });
  }

  /** Stars or unstars a message (`POST /messages/flags`, flag `starred`). */
  async toggleStar(message: Message): Promise<void> {
    const op = message.flags.includes("starred") ? "remove" : "add";
    await this.api.call("POST", "/messages/flags", { messages: [message.id], op, flag: "starred" });
  }
}
