import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { decodeStoredEvent, encodeStoredEvent, storedEventEncoder } from "./event-codec.js";

const GRAVATAR = "https://secure.gravatar.com/avatar/bd2a0c1e0a4bf6e2bd4ee4e7a2b0d5f3?d=identicon&version=3";

function streamEvent(overrides: Record<string, unknown> = {}, top: Record<string, unknown> = {}): Record<string, unknown> & { message: Record<string, unknown> } {
  return {
    type: "message",
    message: {
      id: 41,
      type: "stream",
      sender_id: 7,
      sender_email: "iago@zulip.example",
      sender_full_name: "Iago",
      sender_realm_str: "zulip",
      avatar_url: "https://zulip.example/user_avatars/7.png?x=1",
      recipient_id: 12,
      display_recipient: "Denmark",
      subject: "plans",
      topic_links: [],
      content: "<p>a &amp; b &lt;c&gt; \"d\" 'e'</p>",
      content_type: "text/html",
      timestamp: 1_700_000_000,
      client: "website",
      is_me_message: false,
      reactions: [],
      submessages: [],
      stream_id: 3,
      ...overrides,
    },
    raw_content: "a & b <c> \"d\" 'e'",
    ...top,
  };
}

const roundTrip = (event: object, forUserId?: number) =>
  decodeStoredEvent(JSON.parse(JSON.stringify(encodeStoredEvent(event, { forUserId }))) as { type: string });

describe("encodeStoredEvent / decodeStoredEvent", () => {
  it("rebuilds a plain stream message event exactly, fields in order, and stores it compactly", () => {
    // Prepare
    const event = streamEvent();
    // Act
    const stored = encodeStoredEvent(event) as Record<string, unknown>;
    const back = roundTrip(event);
    // Assess
    expect(back).toEqual(event);
    expect(Object.keys(back.message as object)).toEqual(Object.keys(event.message));
    expect(stored).toEqual({
      type: "message",
      z: {
        i: 41,
        s: 7,
        e: "iago@zulip.example",
        n: "Iago",
        r: "zulip",
        a: "https://zulip.example/user_avatars/7.png?x=1",
        ri: 12,
        d: "Denmark",
        t: "plans",
        ts: 1_700_000_000,
        cl: "website",
        si: 3,
      },
      rc: "a & b <c> \"d\" 'e'",
    });
  });

  it("keeps only the query of a gravatar keyed on the sender's email", () => {
    const email = "iago@zulip.example";
    
    const url = `https://secure.gravatar.com/avatar/${createHash("md5").update(email).digest("hex")}?d=identicon&version=2`;
    const event = streamEvent({ avatar_url: url });
    const stored = encodeStoredEvent(event) as { z: Record<string, unknown> };
    expect(stored.z.ag).toBe("?d=identicon&version=2");
    expect(stored.z.a).toBeUndefined();
    expect(roundTrip(event)).toEqual(event);
    // A gravatar of another address (the delivery email) is kept whole.
    const other = streamEvent({ avatar_url: GRAVATAR });
    expect((encodeStoredEvent(other) as { z: Record<string, unknown> }).z.a).toBe(GRAVATAR);
    expect(roundTrip(other)).toEqual(other);
  });

  it("stores rendered content that is not the plain paragraph of the source", () => {
    const event = streamEvent({ content: "<p><strong>hi</strong></p>" }, { raw_content: "**hi**" });
    expect((encodeStoredEvent(event) as { z: Record<string, unknown> }).z.c).toBe("<p><strong>hi</strong></p>");
    expect(roundTrip(event)).toEqual(event);
  });

  it("rebuilds direct messages, edited /me messages with reactions, and the markdown content type", () => {
    const dm = {
      type: "message",
      message: {
        ...streamEvent().message,
        type: "private",
        display_recipient: [
          { id: 7, email: "iago@zulip.example", full_name: "Iago", is_mirror_dummy: false },
          { id: 8, email: "cordelia@zulip.example", full_name: "Cordelia", is_mirror_dummy: false },
        ],
        subject: "",
        stream_id: undefined,
      },
      raw_content: "hello",
    };
    delete (dm.message as Record<string, unknown>).stream_id;
    expect(roundTrip(dm)).toEqual(dm);
    expect(Object.keys(roundTrip(dm).message as object)).toEqual(Object.keys(dm.message));

    const edited = streamEvent({
      is_me_message: true,
      reactions: [{ emoji_name: "smile", emoji_code: "1f604", reaction_type: "unicode_emoji", user_id: 8 }],
      topic_links: [{ text: "#1", url: "https://example/1" }],
      submessages: [{ id: 1 }],
      content_type: "text/x-markdown",
      edit_history: [{ timestamp: 1_700_000_100, user_id: 7, prev_content: "x" }],
      last_edit_timestamp: 1_700_000_100,
      subject: "",
    });
    expect(roundTrip(edited)).toEqual(edited);
  });

  it("keeps the local echo only in the sender's copy and the realm copy, and the public-stream marker everywhere", () => {
    const event = streamEvent({}, { local_id: "3.01", sender_queue_id: "1700000000000:abc", _public_stream: true });
    const encode = storedEventEncoder(event);
    const senderCopy = decodeStoredEvent(encode(7) as { type: string });
    const otherCopy = decodeStoredEvent(encode(8) as { type: string });
    expect(senderCopy).toEqual(event);
    expect(roundTrip(event)).toEqual(event);
    const { local_id: _l, sender_queue_id: _q, ...withoutEcho } = event;
    expect(otherCopy).toEqual(withoutEcho);
    expect(encode(9)).toBe(encode(8));
  });

  it("stores events it cannot represent exactly, and other event types, unchanged", () => {
    const unknownField = streamEvent({ future_field: 1 });
    expect(encodeStoredEvent(unknownField)).toBe(unknownField);
    const unknownTop = streamEvent({}, { other: true });
    expect(encodeStoredEvent(unknownTop)).toBe(unknownTop);
    const mismatched = streamEvent({ type: "private" });
    expect(encodeStoredEvent(mismatched)).toBe(mismatched);
    const typing = { type: "typing", op: "start", message_type: "direct", sender: { user_id: 1, email: "a@b" }, recipients: [] };
    expect(encodeStoredEvent(typing)).toBe(typing);
    expect(decodeStoredEvent(typing)).toBe(typing);
  });

  it("leaves absent defaulted fields absent", () => {
    const event = streamEvent();
    delete (event.message as Record<string, unknown>).reactions;
    expect(roundTrip(event)).toEqual(event);
    expect("reactions" in (roundTrip(event).message as object)).toBe(false);
  });
});
