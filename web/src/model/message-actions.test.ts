import { describe, expect, it } from "vitest";
import type { ApiClient } from "../api/client.js";
import { appendBlock, historyChange, markUnreadFromHere, messageLink, messageNearHash, quoteText, unusedFence, type HistoryEntry } from "./message-actions.js";
import { parseHash } from "./narrow.js";
import { directMessage, ME, streamMessage } from "./test-fixtures.js";

const names = {
  myUserId: ME,
  streamName: (id: number) => (id === 1 ? "Design team" : undefined),
  userName: (id: number) => (id === 11 ? "Iago" : undefined),
};

describe("message links", () => {
  it("links a stream message as its topic near the message, as Zulip writes it", () => {
    const m = streamMessage(345, { subject: "lunch.menu" });
    expect(messageNearHash(m, names)).toBe("#narrow/channel/1-Design-team/topic/lunch.2Emenu/near/345");
    expect(messageLink("https://chat.example.com/", m, names)).toBe("https://chat.example.com/#narrow/channel/1-Design-team/topic/lunch.2Emenu/near/345");
  });

  it("links a direct message as its conversation near the message", () => {
    expect(messageNearHash(directMessage(7, 11), names)).toBe("#narrow/dm/11-Iago/near/7");
  });

  it("opens, when followed, the message's topic around the message", () => {
    const view = parseHash(messageNearHash(streamMessage(345), names));
    expect(view).toEqual({
      kind: "narrow",
      terms: [
        { operator: "channel", operand: 1 },
        { operator: "topic", operand: "lunch" },
        { operator: "near", operand: 345 },
      ],
    });
  });
});

describe("quoteText", () => {
  it("silently mentions the sender, links the message and fences its Markdown as a quote", () => {
    const m = streamMessage(5, { sender_full_name: "Iago", sender_id: 11 });
    expect(quoteText(m, "hello **world**", "http://x/#narrow/channel/1-general/topic/lunch/near/5")).toBe(
      "@_**Iago|11** [said](http://x/#narrow/channel/1-general/topic/lunch/near/5):\n```quote\nhello **world**\n```",
    );
  });

  it("uses a longer fence than any in the quoted text", () => {
    expect(unusedFence("plain")).toBe("```");
    expect(unusedFence("```js\ncode\n```")).toBe("````");
    expect(unusedFence("  `````\nx\n`````")).toBe("``````");
    expect(quoteText(streamMessage(5), "```\ncode\n```", "L")).toBe("@_**Iago|11** [said](L):\n````quote\n```\ncode\n```\n````");
  });

  it("goes into the draft as a paragraph of its own", () => {
    expect(appendBlock("", "Q")).toBe("Q\n");
    expect(appendBlock("hi", "Q")).toBe("hi\n\nQ\n");
    expect(appendBlock("hi\n", "Q")).toBe("hi\n\nQ\n");
    expect(appendBlock("hi\n\n", "Q")).toBe("hi\n\nQ\n");
  });
});

describe("markUnreadFromHere", () => {
  it("removes the read flag from the message on in the view's narrow, batch after batch until the newest", async () => {
    const calls: Record<string, unknown>[] = [];
    const answers = [
      { last_processed_id: 2000, found_newest: false },
      { last_processed_id: 2500, found_newest: true },
    ];
    const api: ApiClient = {
      call<T>(_method: string, _path: string, params: Record<string, unknown> = {}) {
        calls.push({ _method, _path, ...params });
        return Promise.resolve(answers.shift() as T);
      },
    };
    await markUnreadFromHere(api, { kind: "narrow", terms: [{ operator: "channel", operand: 1 }] }, 1000);
    expect(calls).toEqual([
      {
        _method: "POST",
        _path: "/messages/flags/narrow",
        anchor: 1000,
        include_anchor: true,
        num_before: 0,
        num_after: 1000,
        narrow: [{ operator: "channel", operand: 1 }],
        op: "remove",
        flag: "read",
      },
      expect.objectContaining({ anchor: 2000, include_anchor: false }),
    ]);
  });
});

describe("historyChange", () => {
  const base: HistoryEntry = { timestamp: 1, user_id: 11, topic: "t", content: "c", rendered_content: "<p>c</p>" };
  it("names each version by what changed", () => {
    expect(historyChange(base, 0)).toBe("original");
    expect(historyChange({ ...base, prev_content: "b" }, 1)).toBe("edited");
    expect(historyChange({ ...base, prev_topic: "old" }, 1)).toBe("moved");
    expect(historyChange({ ...base, prev_stream: 2, prev_content: "b" }, 2)).toBe("edited and moved");
  });
});
