import { beforeAll, describe, expect, it } from "vitest";
import { useTestOrg } from "../support/local-stack.js";

/**
 * `POST /messages/render` (https://zulip.com/api/render-message): the
 * HTML a message with the given content would carry in the caller's
 * organization, from the same renderer and lookups as sending; nothing is
 * stored.
 */
const org = useTestOrg();
const STREAM = "render preview";
let streamId: number;

beforeAll(async () => {
  const { member } = org.users;
  const res = await org.api(member, "POST", "/users/me/subscriptions", { subscriptions: [{ name: STREAM }] });
  expect(res.body.result).toBe("success");
  const id = await org.api(member, "GET", "/get_stream_id", { stream: STREAM });
  streamId = id.body.stream_id;
});

describe("POST /messages/render", () => {
  it("answers the success envelope with `rendered`", async () => {
    const res = await org.api(org.users.member, "POST", "/messages/render", { content: "**foo**" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: "success", msg: "", rendered: "<p><strong>foo</strong></p>" });
  });

  it("renders mentions, stream links and emoji with the organization's users and streams", async () => {
    const { member, member2 } = org.users;
    const cases: [string, string][] = [
      [`hi @**${member2.fullName}**`, `<p>hi <span class="user-mention" data-user-id="${member2.id}">@${member2.fullName}</span></p>`],
      [`see #**${STREAM}**`, `<p>see <a class="stream" data-stream-id="${streamId}" href="/#narrow/channel/${streamId}-render-preview">#${STREAM}</a></p>`],
      [":smile:", '<p><span aria-label="smile" class="emoji emoji-1f642" role="img" title="smile">:smile:</span></p>'],
      // Unknown names are not links, as when sending (Zulip's rendering: plain emphasis).
      ["@**Nobody Here** #**no such stream**", "<p>@<strong>Nobody Here</strong> #<strong>no such stream</strong></p>"],
    ];
    for (const [content, rendered] of cases) {
      const res = await org.api(member, "POST", "/messages/render", { content });
      expect(res.body.rendered, content).toBe(rendered);
    }
  });

  it("renders exactly what sending the same content stores, and stores nothing", async () => {
    const { member, member2 } = org.users;
    const content = `@**${member2.fullName}** in #**${STREAM}** :tada: https://example.com/cat.png\n\n$$x^2$$\n\n> quoted`;
    const before = await org.api(member, "GET", "/messages", { anchor: "newest", num_before: 1, num_after: 0 });
    const preview = await org.api(member, "POST", "/messages/render", { content });
    const after = await org.api(member, "GET", "/messages", { anchor: "newest", num_before: 1, num_after: 0 });
    expect(after.body.messages).toEqual(before.body.messages);

    const sent = await org.api(member, "POST", "/messages", { type: "stream", to: STREAM, topic: "preview", content });
    const got = await org.api(member, "GET", `/messages/${sent.body.id}`);
    expect(preview.body.rendered).toBe(got.body.message.content);
  });

  it("renders empty content to an empty string, as Zulip does (only sending refuses it)", async () => {
    const res = await org.api(org.users.member, "POST", "/messages/render", { content: "" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: "success", msg: "", rendered: "" });
  });

  it("refuses a missing content with Zulip's error", async () => {
    const res = await org.api(org.users.member, "POST", "/messages/render", {});
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: "error", msg: "Missing 'content' argument", code: "REQUEST_VARIABLE_MISSING", var_name: "content" });
  });

  it("bounds content at Zulip's 10,000 characters (code points), refused rather than truncated", async () => {
    const { member } = org.users;
    const atLimit = await org.api(member, "POST", "/messages/render", { content: "a".repeat(10_000) });
    expect(atLimit.status).toBe(200);
    expect(atLimit.body.rendered).toBe(`<p>${"a".repeat(10_000)}</p>`);
    // 10,000 of U+10348 (outside the BMP) are 20,000 UTF-16 units and 40,000 bytes, but 10,000 characters.
    const wide = await org.api(member, "POST", "/messages/render", { content: "\u{10348}".repeat(10_000) });
    expect(wide.status).toBe(200);
    expect(wide.body.rendered).toBe(`<p>${"\u{10348}".repeat(10_000)}</p>`);
    for (const content of ["a".repeat(10_001), "\u{10348}".repeat(10_001)]) {
      const res = await org.api(member, "POST", "/messages/render", { content });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ result: "error", msg: "content is too long (limit: 10000 characters)", code: "BAD_REQUEST" });
    }
  });

  it("needs credentials", async () => {
    const res = await org.api(null, "POST", "/messages/render", { content: "x" });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ result: "error", code: "UNAUTHORIZED" });
  });
});
