import PostalMime from "postal-mime";
import { describe, expect, it } from "vitest";
import { composeRawEmail, SES_ADDRESS_HEADER_LIMIT } from "./compose.js";
import type { OutgoingEmail } from "./mailer.js";

const DATE = new Date("2026-01-02T03:04:05Z");

function email(overrides: Partial<OutgoingEmail> = {}): OutgoingEmail {
  return {
    realm_id: 1,
    template: "invitation",
    to: { email: "zoe@example.com", name: "Zoë Ünal" },
    subject: "Grüße aus 日本 — join us",
    text: "Héllo, follow https://chat.example.com/join/abc/?a=1&b=2",
    html: "<p>Héllo</p>",
    from_name: "Café Ørg",
    ...overrides,
  };
}

/** The header block of a raw message, folded lines joined. */
function headers(raw: Buffer): string {
  return raw.toString("latin1").split("\r\n\r\n", 1)[0]!.replace(/\r\n[ \t]/g, " ");
}

describe("composeRawEmail", () => {
  it("encodes a UTF-8 subject and names as RFC 2047 words, leaving headers ASCII", async () => {
    // Act
    const raw = await composeRawEmail(email(), "noreply@example.com", DATE);
    // Assess
    const head = headers(raw);
    expect(head).toMatch(/^[\x20-\x7e\r\n]*$/);
    expect(head).toMatch(/^Subject: =\?UTF-8\?[QB]\?/m);
    const parsed = await PostalMime.parse(raw);
    expect(parsed.subject).toBe("Grüße aus 日本 — join us");
    expect(parsed.from).toMatchObject({ name: "Café Ørg", address: "noreply@example.com" });
    expect(parsed.to?.[0]).toMatchObject({ name: "Zoë Ünal", address: "zoe@example.com" });
    expect(parsed.date).toBe(DATE.toISOString());
  });

  it("is multipart/alternative with the plain text first and the HTML second, both UTF-8", async () => {
    // Act
    const raw = await composeRawEmail(email(), "noreply@example.com", DATE);
    // Assess
    expect(headers(raw)).toMatch(/^Content-Type: multipart\/alternative; boundary=/m);
    const body = raw.toString("latin1");
    const plain = body.indexOf("Content-Type: text/plain; charset=utf-8");
    const htmlPart = body.indexOf("Content-Type: text/html; charset=utf-8");
    expect(plain).toBeGreaterThan(0);
    expect(htmlPart).toBeGreaterThan(plain);
    const parsed = await PostalMime.parse(raw);
    expect(parsed.text?.trim()).toBe("Héllo, follow https://chat.example.com/join/abc/?a=1&b=2");
    expect(parsed.html?.trim()).toBe("<p>Héllo</p>");
  });

  it("uses the organization's name as the sender's display name, and the bare address without one", async () => {
    // Act
    const named = await PostalMime.parse(await composeRawEmail(email({ from_name: `Ops "R&D", Inc.` }), "noreply@chat.example.com", DATE));
    const bare = await composeRawEmail(email({ from_name: undefined }), "noreply@chat.example.com", DATE);
    // Assess
    expect(named.from).toEqual({ name: `Ops "R&D", Inc.`, address: "noreply@chat.example.com" });
    expect(headers(bare)).toMatch(/^From: noreply@chat\.example\.com$/m);
  });

  it("names the template and discourages automatic replies", async () => {
    // Act
    const head = headers(await composeRawEmail(email(), "noreply@example.com", DATE));
    // Assess
    expect(head).toMatch(/^X-Zulip-Template: invitation$/m);
    expect(head).toMatch(/^Auto-Submitted: auto-generated$/m);
    expect(head).toMatch(/^X-Auto-Response-Suppress: All$/m);
  });

  it("lets no line break in the subject or a name start a header of its own", async () => {
    // Act
    const raw = await composeRawEmail(
      email({ subject: "Hi\r\nBcc: evil@example.net", to: { email: "zoe@example.com", name: "Zoë\r\nBcc: evil@example.net" }, from_name: "Org\nBcc: x@y.z" }),
      "noreply@example.com",
      DATE,
    );
    // Assess
    expect(headers(raw)).not.toMatch(/^Bcc:/im);
    const parsed = await PostalMime.parse(raw);
    expect(parsed.bcc ?? []).toEqual([]);
    expect(parsed.to).toHaveLength(1);
  });

  it("drops a display name that would make From or To longer than SES accepts, keeping the address", async () => {
    // Prepare: CJK names encode to about nine characters each
    const long = "長".repeat(60);
    // Act
    const raw = await composeRawEmail(email({ from_name: long, to: { email: "zoe@example.com", name: long } }), "noreply@example.com", DATE);
    const short = await composeRawEmail(email({ from_name: "長".repeat(5) }), "noreply@example.com", DATE);
    // Assess
    const head = headers(raw);
    expect(head).toMatch(/^From: noreply@example\.com$/m);
    expect(head).toMatch(/^To: zoe@example\.com$/m);
    for (const line of head.split("\r\n")) expect(line.length, line.slice(0, 40)).toBeLessThanOrEqual(SES_ADDRESS_HEADER_LIMIT + 6);
    expect((await PostalMime.parse(short)).from?.name).toBe("長".repeat(5));
  });

  it("sets Reply-To only when the email has one", async () => {
    // Act
    const withReply = await PostalMime.parse(await composeRawEmail(email({ reply_to: "owner@example.com" }), "noreply@example.com", DATE));
    const without = headers(await composeRawEmail(email(), "noreply@example.com", DATE));
    // Assess
    expect(withReply.replyTo?.[0]?.address).toBe("owner@example.com");
    expect(without).not.toMatch(/^Reply-To:/im);
  });
});
