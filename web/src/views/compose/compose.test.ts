import { describe, expect, it } from "vitest";
import { enterKeyAction, type EnterKey } from "./keys.js";
import { matchPeople } from "./people.js";
import { IDLE_STOP_MS, TypingNotifier, type TypingClock, type TypingRecipient } from "./typing.js";

const key = (k: Partial<EnterKey>): EnterKey => ({ key: "Enter", shiftKey: false, ctrlKey: false, metaKey: false, altKey: false, ...k });

describe("enterKeyAction", () => {
  it("sends on Enter only when Enter sends", () => {
    expect(enterKeyAction(key({}), true)).toBe("send");
    expect(enterKeyAction(key({}), false)).toBe("default");
  });

  it("sends on Ctrl+Enter and Cmd+Enter in both modes", () => {
    for (const enterSends of [true, false]) {
      expect(enterKeyAction(key({ ctrlKey: true }), enterSends)).toBe("send");
      expect(enterKeyAction(key({ metaKey: true }), enterSends)).toBe("send");
    }
  });

  it("keeps Shift+Enter a newline, and never sends while an input method composes", () => {
    expect(enterKeyAction(key({ shiftKey: true }), true)).toBe("default");
    expect(enterKeyAction(key({ isComposing: true }), true)).toBe("default");
    expect(enterKeyAction(key({ isComposing: true, ctrlKey: true }), false)).toBe("default");
  });

  it("ignores other keys", () => {
    expect(enterKeyAction(key({ key: "a" }), true)).toBe("default");
  });
});

/** A clock that moves only when the test says so, running due timers. */
function fakeClock() {
  let now = 1_000_000;
  let timers: { at: number; fn: () => void; id: number }[] = [];
  let nextId = 1;
  const clock: TypingClock = {
    now: () => now,
    setTimeout: (fn, ms) => {
      const id = nextId++;
      timers.push({ at: now + ms, fn, id });
      return id;
    },
    clearTimeout: (id) => {
      timers = timers.filter((t) => t.id !== id);
    },
  };
  const advance = (ms: number) => {
    now += ms;
    for (const t of timers.filter((t) => t.at <= now)) {
      timers = timers.filter((x) => x !== t);
      t.fn();
    }
  };
  return { clock, advance };
}

describe("TypingNotifier", () => {
  const topic: TypingRecipient = { type: "stream", stream_id: 3, topic: "lunch" };
  const dm: TypingRecipient = { type: "direct", to: [5, 6] };

  function setup() {
    const sent: [string, TypingRecipient][] = [];
    const { clock, advance } = fakeClock();
    const notifier = new TypingNotifier((op, to) => sent.push([op, to]), clock);
    return { sent, advance, notifier };
  }

  it("sends start once, then again only after 10 s of continued typing", () => {
    const { sent, advance, notifier } = setup();
    notifier.typed(topic, true);
    for (let i = 0; i < 9; i++) {
      advance(1_000);
      notifier.typed(topic, true);
    }
    expect(sent).toEqual([["start", topic]]);
    advance(1_000);
    notifier.typed(topic, true);
    expect(sent).toEqual([
      ["start", topic],
      ["start", topic],
    ]);
  });

  it("sends stop after 5 s without a keystroke, and not before", () => {
    const { sent, advance, notifier } = setup();
    notifier.typed(topic, true);
    advance(IDLE_STOP_MS - 1);
    expect(sent).toEqual([["start", topic]]);
    advance(1);
    expect(sent).toEqual([
      ["start", topic],
      ["stop", topic],
    ]);
    advance(60_000);
    expect(sent).toHaveLength(2);
  });

  it("sends stop on send, once, and cancels the idle stop", () => {
    const { sent, advance, notifier } = setup();
    notifier.typed(dm, true);
    notifier.stop();
    notifier.stop();
    advance(IDLE_STOP_MS);
    expect(sent).toEqual([
      ["start", dm],
      ["stop", dm],
    ]);
  });

  it("stops the old conversation when the recipient changes, and when the text is emptied", () => {
    const { sent, notifier } = setup();
    notifier.typed(topic, true);
    notifier.typed({ type: "stream", stream_id: 3, topic: "dinner" }, true);
    notifier.typed({ type: "stream", stream_id: 3, topic: "dinner" }, false);
    expect(sent).toEqual([
      ["start", topic],
      ["stop", topic],
      ["start", { type: "stream", stream_id: 3, topic: "dinner" }],
      ["stop", { type: "stream", stream_id: 3, topic: "dinner" }],
    ]);
  });

  it("sends nothing while there is no recipient", () => {
    const { sent, notifier } = setup();
    notifier.typed(null, true);
    expect(sent).toEqual([]);
  });

  it("treats the same people in another order as the same conversation", () => {
    const { sent, notifier } = setup();
    notifier.typed({ type: "direct", to: [6, 5] }, true);
    notifier.typed(dm, true);
    expect(sent).toEqual([["start", { type: "direct", to: [6, 5] }]]);
  });
});

describe("matchPeople", () => {
  const people = [
    { user_id: 1, full_name: "Iago Smith", email: "iago@zulip.com" },
    { user_id: 2, full_name: "Othello", email: "othello@zulip.com" },
    { user_id: 3, full_name: "Cordelia Lear", email: "cordelia@zulip.com" },
    { user_id: 4, full_name: "King Lear", email: "king@zulip.com" },
  ];

  it("finds people by name, by a word of the name and by email, best first", () => {
    expect(matchPeople(people, "le", new Set()).map((p) => p.user_id)).toEqual([3, 4]);
    expect(matchPeople(people, "King", new Set()).map((p) => p.user_id)).toEqual([4]);
    expect(matchPeople(people, "othello@", new Set()).map((p) => p.user_id)).toEqual([2]);
    expect(matchPeople(people, "c", new Set()).map((p) => p.user_id)).toEqual([3]);
  });

  it("leaves out people already chosen, and finds nobody for an empty query", () => {
    expect(matchPeople(people, "lear", new Set([3])).map((p) => p.user_id)).toEqual([4]);
    expect(matchPeople(people, "  ", new Set())).toEqual([]);
  });
});
