import { describe, expect, it } from "vitest";
import type { MessageRecord } from "../../data/records/message.js";
import {
  absoluteContentHtml,
  hideSpoilersInText,
  groupDisplayName,
  missedMessageEmail,
  missedMessageSubject,
  type MissedConversation,
  type MissedMessageRecipient,
} from "./missed-message-email.js";

const REALM = { id: 7, name: "Acme <Corp>", url: "https://acme.example" };
const TO: MissedMessageRecipient = {
  user_id: 2,
  delivery_email: "bob@example.com",
  full_name: "Bob",
  includeContent: true,
  includeRealmName: false,
};

function message(over: Partial<MessageRecord>): MessageRecord {
  return {
    id: 100,
    realm_id: 7,
    recipient_type: "private",
    recipient_id: 50,
    topic: "",
    display_recipient: [
      { id: 1, email: "a@x", full_name: "Alice", is_mirror_dummy: false },
      { id: 2, email: "b@x", full_name: "Bob", is_mirror_dummy: false },
    ],
    dm_user_ids: [1, 2],
    sender_id: 1,
    sender_full_name: "Alice",
    content: "hello",
    rendered_content: "<p>hello</p>",
    ...over,
  } as MessageRecord;
}

const dm = (over: Partial<MessageRecord> = {}): MissedConversation => ({
  kind: "private",
  messages: [message(over)],
  triggers: new Map([[over.id ?? 100, "private_message"]]),
});

const streamConv = (topic: string, content = "<p>hi</p>"): MissedConversation => ({
  kind: "stream",
  messages: [message({ recipient_type: "stream", stream_id: 9, topic, display_recipient: "design", rendered_content: content })],
  triggers: new Map([[100, "mentioned"]]),
  stream: { stream_id: 9, name: "design team" },
});

describe("missedMessageSubject", () => {
  it("names a one-to-one conversation by its sender", () => {
    expect(missedMessageSubject(dm(), TO, REALM.name)).toBe("DMs with Alice");
  });

  it("names a group conversation by the others, Zulip's way", () => {
    const others = ["Alice", "Carol", "Dan", "Eve"].map((full_name, i) => ({ id: 10 + i, email: "", full_name, is_mirror_dummy: false }));
    const conv: MissedConversation = {
      kind: "group",
      messages: [message({ display_recipient: [...others.slice(0, 2), { id: 2, email: "", full_name: "Bob", is_mirror_dummy: false }] })],
      triggers: new Map(),
    };
    expect(missedMessageSubject(conv, TO, REALM.name)).toBe("Group DMs with Alice and Carol");
    expect(groupDisplayName(["A", "B", "C"])).toBe("A, B, and C");
    expect(groupDisplayName(["A", "B", "C", "D", "E"])).toBe("A, B, and 3 others");
  });

  it("names a stream conversation #stream > topic, resolved topics with a prefix and their bare name", () => {
    expect(missedMessageSubject(streamConv("lunch"), TO, REALM.name)).toBe("#design team > lunch");
    expect(missedMessageSubject(streamConv("✔ lunch"), TO, REALM.name)).toBe("[resolved] #design team > lunch");
  });

  it("says only 'New messages' without content, and names the organization when asked", () => {
    expect(missedMessageSubject(dm(), { ...TO, includeContent: false }, REALM.name)).toBe("New messages");
    expect(missedMessageSubject(dm(), { ...TO, includeRealmName: true }, REALM.name)).toBe("DMs with Alice [Acme <Corp>]");
  });
});

describe("absoluteContentHtml", () => {
  it("makes relative links absolute and drops inline image previews", () => {
    const rendered =
      '<p><a href="user_uploads/7/ab/f.pdf">f</a> <a href="#narrow/channel/9-design">#design</a> <a href="https://x.example/">x</a></p>' +
      '<div class="message_inline_image"><a href="user_uploads/7/cd/i.png"><img src="/user_uploads/thumbnail/7/cd/i.png/840x560.webp"></a></div>';
    expect(absoluteContentHtml(rendered, REALM.url)).toBe(
      '<p><a href="https://acme.example/user_uploads/7/ab/f.pdf">f</a> <a href="https://acme.example/#narrow/channel/9-design">#design</a> <a href="https://x.example/">x</a></p>',
    );
  });
});

describe("missedMessageEmail", () => {
  it("carries the sender, the content, the conversation and settings links, names escaped", () => {
    const email = missedMessageEmail(REALM, TO, {
      ...streamConv("<b>plans</b>", '<p>see <a href="/user_uploads/7/x/a.txt">a</a></p>'),
      messages: [
        message({
          recipient_type: "stream",
          stream_id: 9,
          topic: "<b>plans</b>",
          sender_full_name: "Al <i>ce",
          content: "see [a](/user_uploads/7/x/a.txt)",
          rendered_content: '<p>see <a href="/user_uploads/7/x/a.txt">a</a></p>',
        }),
      ],
    });
    expect(email.template).toBe("missed_message");
    expect(email.to).toEqual({ email: "bob@example.com", user_id: 2, name: "Bob" });
    expect(email.subject).toBe("#design team > <b>plans</b>");
    expect(email.text).toContain("Al <i>ce:\n> see [a](https://acme.example/user_uploads/7/x/a.txt)");
    expect(email.text).toContain("https://acme.example/#narrow/channel/9-design-team/topic/.3Cb.3Eplans.3C.2Fb.3E");
    expect(email.text).toContain("https://acme.example/#settings/notifications");
    expect(email.html).toContain("Al &lt;i&gt;ce");
    expect(email.html).toContain('<a href="https://acme.example/user_uploads/7/x/a.txt">a</a>');
    expect(email.html).not.toContain("<b>plans</b>");
  });

  it("leaves the content out when it is not allowed", () => {
    const email = missedMessageEmail(REALM, { ...TO, includeContent: false }, dm({ content: "secret", rendered_content: "<p>secret</p>" }));
    expect(email.subject).toBe("New messages");
    expect(email.text).not.toContain("secret");
    expect(email.html).not.toContain("secret");
    expect(email.text).toContain("https://acme.example/#narrow/dm/1-Alice");
  });
});

describe("absoluteContentHtml's spoilers", () => {
  it("replaces a spoiler's hidden content, nested blocks included, and keeps its header and what follows", () => {
    const rendered =
      '<div class="spoiler-block"><div class="spoiler-header"><p>Ending</p></div><div class="spoiler-content" aria-hidden="true">' +
      '<div class="codehilite"><pre>the butler</pre></div><p>did it</p></div></div><p>after</p>';
    const out = absoluteContentHtml(rendered, REALM.url);
    expect(out).toBe(
      '<div class="spoiler-block"><div class="spoiler-header"><p>Ending</p></div>' +
        '<div class="spoiler-content"><p>(hidden content: open the conversation to see it)</p></div></div><p>after</p>',
    );
  });
});

describe("hideSpoilersInText", () => {
  it("keeps a spoiler's header line and fences, and hides its lines", () => {
    const content = "before\n```spoiler Ending\nthe butler\n```\nafter";
    expect(hideSpoilersInText(content)).toBe("before\n```spoiler Ending\n(hidden content: open the conversation to see it)\n```\nafter");
    expect(hideSpoilersInText("```python\ncode\n```")).toBe("```python\ncode\n```");
  });
});
