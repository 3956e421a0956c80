import { describe, expect, it } from "vitest";
import type { MessageRecord } from "../../data/records/message.js";
import { decodeStoredEvent, storedEventEncoder } from "../../data/event-codec.js";
import { dynamoItemBytes, writeUnitsFor } from "../../data/item-size.js";
import { keys } from "../../data/keys.js";
import { newEventKey } from "../../data/event-logs.js";
import { gravatarUrl } from "../../domain/avatar.js";
import { renderMarkdown } from "../../markdown/render.js";
import { PUBLIC_STREAM_MARKER } from "../../events/publish.js";
import { messageEvent } from "./notify-message.js";
import { noReactions } from "../../data/reactions.js";

/** ~100 characters, as a typical chat message. */
const CONTENT = "The deploy of the new search index finished; please check the dashboards & report anything odd. Thx";

/** A stream message as a typical send stores it: a gravatar, a 100-character plain paragraph, a 16-character topic. */
function typicalMessage(): MessageRecord {
  const email = "alexandra.kowalski@example.com";
  const html = renderMarkdown(CONTENT, { users: [], groups: [], streams: [], realmEmoji: [], realmUrl: "https://acme.zulipchat.example" }).html;
  return {
    id: 1_234_567,
    realm_id: 12,
    recipient_type: "stream",
    recipient_id: 34_567,
    stream_id: 4_321,
    topic: "search rollout 2",
    display_recipient: "engineering-ops",
    sender_id: 98_765,
    sender_email: email,
    sender_full_name: "Alexandra Kowalski",
    sender_realm_str: "acme",
    sender_avatar_url: gravatarUrl(email, 1),
    sender_gravatar: true,
    content: CONTENT,
    rendered_content: html,
    rendered_content_version: 1,
    timestamp: 1_764_000_000,
    client: "ZulipElectron",
    is_me_message: false,
    has_link: false,
    has_image: false,
    has_attachment: false,
    mentioned_user_ids: [],
    mentioned_group_ids: [],
    wildcard_mentioned: false,
    ...noReactions(),
    edit_history: [],
    submessages: [],
    topic_links: [],
  };
}

/** One user-log item as `putUserEventItems` writes it. */
function userLogItem(userId: number, event: object, flags: string[]) {
  return { ...keys.userEvent(userId, newEventKey(1_764_000_000_123)), type: "event", event, flags, expires_at: 1_764_003_600 };
}

describe("a typical stream message's event copy", () => {
  it("is under DynamoDB's 1 KB write unit per recipient, and decodes to the event as sent", () => {
    // Prepare: the event of a public-stream message sent by a client with a local echo.
    const message = typicalMessage();
    const event = { ...messageEvent(message, { localId: "127.01", queueId: "1764000000000:0123456789abcdef01234567" }), [PUBLIC_STREAM_MARKER]: true };
    const encode = storedEventEncoder(event);
    // Act
    const verbatim = dynamoItemBytes(userLogItem(55_555, event, []));
    const recipientCopy = dynamoItemBytes(userLogItem(55_555, encode(55_555), []));
    const senderCopy = dynamoItemBytes(userLogItem(message.sender_id, encode(message.sender_id), ["read"]));
    // Assess
    expect(recipientCopy).toBeLessThan(1024);
    expect(senderCopy).toBeLessThan(1024);
    expect(writeUnitsFor(recipientCopy)).toBe(1);
    // The stored form leaves room: the same message with 300 more characters of plain text still fits one write unit.
    expect(recipientCopy + 300).toBeLessThan(1024);
    expect(verbatim - recipientCopy).toBeGreaterThan(300);
    // Measured: 849 bytes verbatim (2 write units past ~170 more bytes of names or content), 369 stored, 424 for the sender.
    const stored = JSON.parse(JSON.stringify(encode(message.sender_id))) as { type: string };
    expect(decodeStoredEvent(stored)).toEqual(event);
  });
});
