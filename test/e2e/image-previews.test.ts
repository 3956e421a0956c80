import { describe, expect, it } from "vitest";
import { camoPath } from "../../shared/camo.js";
import type { TestUser } from "../support/api-client.js";
import { useTestOrg } from "../support/local-stack.js";
import { pngBytes } from "./image-upload-helpers.js";
import { createStream } from "./streams-helpers.js";
import { uploadFile } from "./uploads-helpers.js";

describe("inline image previews in messages", () => {
  const org = useTestOrg();

  async function sendAndFetch(user: TestUser, stream: string, content: string): Promise<Record<string, any>> {
    const sent = await org.api(user, "POST", "/messages", { type: "stream", to: stream, topic: "pictures", content });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const got = await org.api(user, "GET", `/messages/${sent.body.id}`);
    expect(got.status).toBe(200);
    return got.body.message as Record<string, any>;
  }

  /** IDs of the stream's messages matching `has:image` (the message's has_image, which is not on the wire). */
  async function withImage(user: TestUser, stream: string): Promise<number[]> {
    const narrow = [["channel", stream], ["has", "image"]];
    const res = await org.api(user, "GET", "/messages", { anchor: "oldest", num_before: 0, num_after: 100, narrow });
    expect(res.status).toBe(200);
    return (res.body.messages as { id: number }[]).map((m) => m.id);
  }

  it("a message linking an uploaded image renders Zulip's preview of it and has_image", async () => {
    const { member } = org.users;
    await createStream(org, member, "previews");
    const url = await uploadFile(org, member, "sunset.png", await pngBytes(64, 48), "image/png");
    // The upload's thumbnail job finishes first: the preview shows the thumbnail (thumbnails.test.ts covers the placeholder).
    await org.stack.drainDeferredWork();
    const message = await sendAndFetch(member, "previews", `Tonight: [sunset.png](${url})`);
    const thumbnail = `/user_uploads/thumbnail/${url.slice("/user_uploads/".length)}/840x560.webp`;
    expect(message.content).toBe(
      `<p>Tonight: <a href="${url}">sunset.png</a></p>\n` +
        `<div class="message_inline_image"><a href="${url}" title="sunset.png">` +
        `<img data-original-dimensions="64x48" src="${thumbnail}"></a></div>`,
    );
    expect(await withImage(member, "previews")).toEqual([message.id]);
  });

  it("an image URL alone becomes the preview; quoted and non-image links get none", async () => {
    const { member } = org.users;
    await createStream(org, member, "previews external");
    const image = "https://images.example.net/cats/tabby.jpeg";
    const alone = await sendAndFetch(member, "previews external", image);
    // The local stack has a camo key, as a deployment does: the preview loads through this server's proxy.
    const camoKey = org.stack.deps.config.CAMO_KEY;
    expect(camoKey).toBeTruthy();
    const src = camoPath(camoKey!, image);
    expect(src).toMatch(/^\/external_content\/[0-9a-f]{40}\/[0-9a-f]+$/);
    expect(alone.content).toBe(`<div class="message_inline_image"><a href="${image}"><img src="${src}"></a></div>`);

    const quoted = await sendAndFetch(member, "previews external", `> ${image}\n\nhttps://example.net/page.html`);
    expect(quoted.content).not.toContain("message_inline_image");
    expect(await withImage(member, "previews external")).toEqual([alone.id]);
  });
});
