import { beforeAll, describe, expect, it } from "vitest";
import type { TestUser } from "../support/api-client.js";
import { useTestOrg } from "../support/local-stack.js";

/**
 * Zulip-flavoured Markdown through the API: what a client gets back from
 * `GET /messages/{id}` for content sent with `POST /messages`. The exact
 * markup of each construct is unit-tested in shared/markdown; here the point
 * is that sending renders with the realm's users and streams, sets the right
 * flags and fields, and that the raw source comes back with apply_markdown=false.
 */
const org = useTestOrg();
const STREAM = "markdown tests";

async function sendAndFetch(user: TestUser, content: string, topic = "md") {
  const sent = await org.api(user, "POST", "/messages", { type: "stream", to: STREAM, topic, content });
  expect(sent.body).toMatchObject({ result: "success" });
  const got = await org.api(user, "GET", `/messages/${sent.body.id}`);
  expect(got.status).toBe(200);
  return got.body.message as Record<string, any>;
}

beforeAll(async () => {
  const { member, member2, admin } = org.users;
  const res = await org.api(member, "POST", "/users/me/subscriptions", {
    subscriptions: [{ name: STREAM }],
    principals: [member.id, member2.id, admin.id],
  });
  expect(res.body.result).toBe("success");
});

describe("Markdown rendering of sent messages", () => {
  it("renders emphasis, links, lists, quotes, code with its language and tables", async () => {
    const m = await sendAndFetch(
      org.users.member,
      [
        "**bold** *italic* ~~gone~~ `inline` https://example.com/x",
        "",
        "* one",
        "* two",
        "",
        "> quoted",
        "",
        "```python",
        "print('hi')",
        "```",
        "",
        "| a | b |",
        "|---|---|",
        "| 1 | 2 |",
      ].join("\n"),
    );
    expect(m.content_type).toBe("text/html");
    expect(m.content).toContain("<strong>bold</strong>");
    expect(m.content).toContain("<em>italic</em>");
    expect(m.content).toContain("<del>gone</del>");
    expect(m.content).toContain("<code>inline</code>");
    expect(m.content).toContain('<a href="https://example.com/x"');
    expect(m.content).toContain("<li>one</li>");
    expect(m.content).toContain("<blockquote>");
    expect(m.content).toContain('<div class="codehilite" data-code-language="Python">');
    expect(m.content).toContain("<table>");
  });

  it("renders spoilers and ```quote blocks", async () => {
    const m = await sendAndFetch(org.users.member, "```spoiler Plot twist\nIt was the butler.\n```\n\n```quote\nWise words\n```");
    expect(m.content).toContain('<div class="spoiler-block"><div class="spoiler-header">');
    expect(m.content).toContain("Plot twist");
    expect(m.content).toContain('<div class="spoiler-content" aria-hidden="true">');
    expect(m.content).toMatch(/<blockquote>\s*<p>Wise words<\/p>\s*<\/blockquote>/);
  });

  it("resolves user mentions, silent mentions and wildcards, and flags the recipients", async () => {
    const { member, member2, admin } = org.users;
    const m = await sendAndFetch(member, `hi @**${member2.fullName}** and @_**${admin.fullName}**, @**all**`);
    expect(m.content).toContain(`<span class="user-mention" data-user-id="${member2.id}">@${member2.fullName}</span>`);
    expect(m.content).toContain(`<span class="user-mention silent" data-user-id="${admin.id}">${admin.fullName}</span>`);
    expect(m.content).toContain('data-user-id="*"');
    const forMember2 = await org.api(member2, "GET", `/messages/${m.id}`);
    expect(forMember2.body.message.flags).toEqual(expect.arrayContaining(["mentioned", "wildcard_mentioned"]));
    const forAdmin = await org.api(admin, "GET", `/messages/${m.id}`);
    // A silent mention notifies nobody; the wildcard still reaches a subscriber.
    expect(forAdmin.body.message.flags).not.toContain("mentioned");
    expect(forAdmin.body.message.flags).toContain("wildcard_mentioned");
  });

  it("links streams and topics, and renders emoji and global times", async () => {
    const m = await sendAndFetch(
      org.users.member,
      `see #**${STREAM}** and #**${STREAM}>md** :smile: 🎉 <time:2024-01-02T03:04:05Z>`,
    );
    const id = (await org.api(org.users.member, "GET", "/get_stream_id", { stream: STREAM })).body.stream_id;
    expect(m.content).toContain(`<a class="stream" data-stream-id="${id}"`);
    expect(m.content).toContain(`<a class="stream-topic" data-stream-id="${id}"`);
    // Zulip's name for U+1F642 is smile (its emoji names differ from Unicode's).
    expect(m.content).toContain('class="emoji emoji-1f642"');
    expect(m.content).toContain('class="emoji emoji-1f389"');
    expect(m.content).toContain('<time datetime="2024-01-02T03:04:05Z">');
  });

  it("marks /me messages with is_me_message", async () => {
    const me = await sendAndFetch(org.users.member, "/me waves");
    const plain = await sendAndFetch(org.users.member, "waves");
    expect(me.is_me_message).toBe(true);
    expect(plain.is_me_message).toBe(false);
  });

  it("never passes the sender's HTML or javascript: links through", async () => {
    const m = await sendAndFetch(
      org.users.member,
      '<script>alert(1)</script> <img src=x onerror=alert(2)> [click](javascript:alert(3))',
    );
    expect(m.content).not.toContain("<script");
    expect(m.content).not.toContain("<img");
    expect(m.content).not.toMatch(/href="javascript:/i);
    expect(m.content).toContain("&lt;script&gt;");
  });

  it("returns the Markdown source with apply_markdown=false, and in raw_content", async () => {
    const source = "**raw** :smile:";
    const sent = await org.api(org.users.member, "POST", "/messages", { type: "stream", to: STREAM, topic: "md", content: source });
    const raw = await org.api(org.users.member, "GET", `/messages/${sent.body.id}`, { apply_markdown: false });
    expect(raw.body.message).toMatchObject({ content: source, content_type: "text/x-markdown" });
    expect(raw.body.raw_content).toBe(source);
    const list = await org.api(org.users.member, "GET", "/messages", {
      anchor: sent.body.id,
      num_before: 0,
      num_after: 0,
      apply_markdown: false,
    });
    expect(list.body.messages[0]).toMatchObject({ id: sent.body.id, content: source, content_type: "text/x-markdown" });
  });

  it("sets topic_links for URLs in the topic", async () => {
    const m = await sendAndFetch(org.users.member, "about a link", "see https://example.org/issue/7");
    expect(m.topic_links).toEqual([{ text: "https://example.org/issue/7", url: "https://example.org/issue/7" }]);
  });
});
