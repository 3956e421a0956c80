import { describe, expect, it } from "vitest";
import {
  apiNarrow,
  decodeHashComponent,
  dmHash,
  encodeHash,
  encodeHashComponent,
  messageMatchesNarrow,
  parseHash,
  streamHash,
  viewMarksRead,
  type NarrowNames,
  type View,
} from "./narrow.js";
import { parseSearchQuery, searchQueryFromTerms } from "./query.js";
import { context, directMessage, ME, streamMessage } from "./test-fixtures.js";

const names: NarrowNames = {
  myUserId: ME,
  streamName: (id) => ({ 1: "general", 2: "design team" })[id],
  streamIdByName: (n) => ({ general: 1, "design team": 2 })[n.toLowerCase()],
  userName: (id) => ({ 10: "Me Myself", 11: "Iago", 12: "Cordelia Lear" })[id],
  userIdByEmailOrName: (t) => ({ "iago@example.com": 11, iago: 11, "cordelia lear": 12 })[t.toLowerCase()],
};

describe("hash components", () => {
  it("encodes dots and percent signs the way Zulip's web app does", () => {
    expect(encodeHashComponent("v1.2 100%")).toBe("v1.2E2.20100.25");
    expect(decodeHashComponent("v1.2E2.20100.25")).toBe("v1.2 100%");
  });

  it("round-trips any text", () => {
    for (const text of ["lunch", "✔ done", "a/b", "x.y", "50% off", "naïve café", "#hash?q=1&r"]) {
      expect(decodeHashComponent(encodeHashComponent(text))).toBe(text);
    }
  });

  it("refuses malformed components", () => {
    expect(decodeHashComponent(".E")).toBeUndefined();
    expect(encodeHashComponent("f(x)")).toBe("f.28x.29");
  });
});

describe("parseHash / encodeHash", () => {
  it("reads the combined feed, the inbox and the short forms", () => {
    expect(parseHash("")).toEqual({ kind: "feed" });
    expect(parseHash("#feed")).toEqual({ kind: "feed" });
    expect(parseHash("#inbox")).toEqual({ kind: "inbox" });
    expect(parseHash("#starred")).toEqual({ kind: "narrow", terms: [{ operator: "is", operand: "starred" }] });
    expect(parseHash("#nonsense")).toEqual({ kind: "feed" });
  });

  it("reads a stream and topic with IDs and slugs", () => {
    expect(parseHash("#narrow/channel/2-design-team/topic/v1.2E2.20release")).toEqual({
      kind: "narrow",
      terms: [
        { operator: "channel", operand: 2 },
        { operator: "topic", operand: "v1.2 release" },
      ],
    });
    expect(parseHash("#narrow/stream/1-general").kind === "narrow" && parseHash("#narrow/stream/1-general")).toEqual({
      kind: "narrow",
      terms: [{ operator: "channel", operand: 1 }],
    });
  });

  it("reads direct messages, negation and search", () => {
    expect(parseHash("#narrow/dm/11,12-group")).toEqual({ kind: "narrow", terms: [{ operator: "dm", operand: [11, 12] }] });
    expect(parseHash("#narrow/-is/starred/search/hello.20world")).toEqual({
      kind: "narrow",
      terms: [
        { operator: "is", operand: "starred", negated: true },
        { operator: "search", operand: "hello world" },
      ],
    });
  });

  it("writes stream, topic and dm hashes with readable slugs", () => {
    expect(streamHash(2, "design team", "v1.2 100%")).toBe("#narrow/channel/2-design-team/topic/v1.2E2.20100.25");
    expect(dmHash([11], names.userName)).toBe("#narrow/dm/11-Iago");
    expect(dmHash([12, 11], names.userName)).toBe("#narrow/dm/11,12-group");
  });

  it("round-trips every view", () => {
    const views: View[] = [
      { kind: "feed" },
      { kind: "inbox" },
      { kind: "narrow", terms: [{ operator: "channel", operand: 1 }, { operator: "topic", operand: "✔ a.b/c %" }] },
      { kind: "narrow", terms: [{ operator: "dm", operand: [11, 12] }] },
      { kind: "narrow", terms: [{ operator: "is", operand: "mentioned" }] },
      { kind: "narrow", terms: [{ operator: "sender", operand: 12 }, { operator: "has", operand: "link", negated: true }] },
      { kind: "narrow", terms: [{ operator: "search", operand: "a.b \"c\" 10%" }] },
    ];
    for (const view of views) expect(parseHash(encodeHash(view, names))).toEqual(view);
  });
});

describe("parseSearchQuery", () => {
  it("parses operators, aliases, negation, quotes and words", () => {
    expect(parseSearchQuery('stream:"design team" topic:"v1 release" -is:starred sender:me has:LINK hello world', names)).toEqual([
      { operator: "channel", operand: 2 },
      { operator: "topic", operand: "v1 release" },
      { operator: "is", operand: "starred", negated: true },
      { operator: "sender", operand: ME },
      { operator: "has", operand: "link" },
      { operator: "search", operand: "hello world" },
    ]);
  });

  it("resolves people in dm: and keeps unknown names for the server", () => {
    expect(parseSearchQuery("dm:iago@example.com,Cordelia\u0020Lear", names)).toEqual([
      { operator: "dm", operand: "iago@example.com,Cordelia" },
      { operator: "search", operand: "Lear" },
    ]);
    expect(parseSearchQuery('dm:"iago@example.com,cordelia lear"', names)).toEqual([{ operator: "dm", operand: [11, 12] }]);
    expect(parseSearchQuery("channel:nowhere", names)).toEqual([{ operator: "channel", operand: "nowhere" }]);
  });

  it("treats unknown operators and bare colons as words", () => {
    expect(parseSearchQuery("foo:bar time: 10:30", names)).toEqual([{ operator: "search", operand: "foo:bar time: 10:30" }]);
    expect(parseSearchQuery("   ", names)).toEqual([]);
  });

  it("writes terms back as a query that parses to the same terms", () => {
    const terms = parseSearchQuery('channel:"design team" -topic:lunch sender:iago is:unread pizza', names);
    const text = searchQueryFromTerms(terms, names);
    expect(text).toBe('channel:"design team" -topic:lunch sender:Iago is:unread pizza');
    expect(parseSearchQuery(text, names)).toEqual(terms);
  });
});

describe("messageMatchesNarrow", () => {
  const ctx = context();

  it("matches stream, topic (without case) and sender terms", () => {
    const m = streamMessage(5, { subject: "Lunch" });
    expect(messageMatchesNarrow(m, [{ operator: "channel", operand: 1 }, { operator: "topic", operand: "lunch" }], ctx)).toBe(true);
    expect(messageMatchesNarrow(m, [{ operator: "channel", operand: 2 }], ctx)).toBe(false);
    expect(messageMatchesNarrow(m, [{ operator: "sender", operand: 11 }], ctx)).toBe(true);
    expect(messageMatchesNarrow(m, [{ operator: "topic", operand: "lunch", negated: true }], ctx)).toBe(false);
  });

  it("matches a conversation by its people, whatever the order", () => {
    const group = directMessage(6, 12, [11]);
    expect(messageMatchesNarrow(group, [{ operator: "dm", operand: [12, 11] }], ctx)).toBe(true);
    expect(messageMatchesNarrow(group, [{ operator: "dm", operand: [11] }], ctx)).toBe(false);
    expect(messageMatchesNarrow(directMessage(7, 11), [{ operator: "dm", operand: [11] }], ctx)).toBe(true);
    expect(messageMatchesNarrow(group, [{ operator: "is", operand: "dm" }], ctx)).toBe(true);
  });

  it("reads flags for is:starred, is:mentioned, is:unread; the topic for is:resolved; the HTML for has:", () => {
    const m = streamMessage(8, { flags: ["starred", "wildcard_mentioned", "read"], subject: "✔ done", content: '<p><a href="https://x">x</a></p>' });
    expect(messageMatchesNarrow(m, [{ operator: "is", operand: "starred" }], ctx)).toBe(true);
    expect(messageMatchesNarrow(m, [{ operator: "is", operand: "mentioned" }], ctx)).toBe(true);
    expect(messageMatchesNarrow(m, [{ operator: "is", operand: "unread" }], ctx)).toBe(false);
    expect(messageMatchesNarrow(m, [{ operator: "is", operand: "resolved" }], ctx)).toBe(true);
    expect(messageMatchesNarrow(m, [{ operator: "has", operand: "link" }], ctx)).toBe(true);
    expect(messageMatchesNarrow(m, [{ operator: "has", operand: "image" }], ctx)).toBe(false);
  });

  it("never adds to search views or terms with unresolved names", () => {
    const m = streamMessage(9, { content: "<p>pizza</p>" });
    expect(messageMatchesNarrow(m, [{ operator: "search", operand: "pizza" }], ctx)).toBe(false);
    expect(messageMatchesNarrow(m, [{ operator: "channel", operand: "general" }], ctx)).toBe(false);
  });

  it("leaves muted streams and topics out of the combined feed, unless the topic is unmuted", () => {
    const muted = context({ isStreamMuted: (id) => id === 1, topicPolicy: (_s, t) => (t === "followed" ? 3 : t === "quiet" ? 1 : 0) });
    expect(messageMatchesNarrow(streamMessage(1), [], muted)).toBe(false);
    expect(messageMatchesNarrow(streamMessage(2, { subject: "followed" }), [], muted)).toBe(true);
    expect(messageMatchesNarrow(streamMessage(3, { stream_id: 2, subject: "quiet" }), [], muted)).toBe(false);
    expect(messageMatchesNarrow(streamMessage(4, { stream_id: 2 }), [], muted)).toBe(true);
    expect(messageMatchesNarrow(directMessage(5, 11), [], muted)).toBe(true);
  });
});

describe("viewMarksRead / apiNarrow", () => {
  it("marks read in the feed, streams, topics and conversations, not in search or starred", () => {
    expect(viewMarksRead({ kind: "feed" })).toBe(true);
    expect(viewMarksRead(parseHash("#narrow/channel/1-general/topic/lunch"))).toBe(true);
    expect(viewMarksRead(parseHash("#narrow/dm/11-Iago"))).toBe(true);
    expect(viewMarksRead(parseHash("#narrow/search/pizza"))).toBe(false);
    expect(viewMarksRead(parseHash("#narrow/channel/1-general/search/pizza"))).toBe(false);
    expect(viewMarksRead(parseHash("#narrow/is/starred"))).toBe(false);
    expect(viewMarksRead({ kind: "inbox" })).toBe(false);
  });

  it("asks the server for in:home in the combined feed and the terms elsewhere", () => {
    expect(apiNarrow({ kind: "feed" })).toEqual([{ operator: "in", operand: "home" }]);
    expect(apiNarrow(parseHash("#narrow/-is/starred"))).toEqual([{ operator: "is", operand: "starred", negated: true }]);
  });
});
