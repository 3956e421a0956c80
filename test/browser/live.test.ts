import { describe, expect, it } from "vitest";
import { useTestOrg } from "../support/local-stack.js";
import {
  createStream,
  dmHash,
  goToHash,
  linkNamed,
  messageText,
  sendFromCompose,
  sendStreamMessage,
  unique,
  useBrowser,
  visible,
  waitForUnreadCountShown,
  watchUnreadCounts,
} from "./support.js";

const org = useTestOrg();
const browsers = useBrowser();

/** Two people in browsers of their own: A (the member) and B (the second member), both on the combined feed. */
async function twoPeople() {
  const a = await browsers.newPerson(org, org.users.member);
  const b = await browsers.newPerson(org, org.users.member2);
  return { a, b };
}

describe("two people chatting live", () => {
  it("A sends a stream message; B, on the combined feed, sees it arrive and B's unread count for the stream change", async () => {
    // Prepare
    const stream = unique("harbour");
    await createStream(org, org.users.owner, stream, [org.users.member, org.users.member2]);
    const { a, b } = await twoPeople();
    await visible(linkNamed(b.page, stream));
    await watchUnreadCounts(b.page, "stream", stream);
    const content = unique("ships at dawn ");

    // Act: A opens the stream and writes in a new topic.
    await linkNamed(a.page, stream).first().click();
    await sendFromCompose(a.page, content, "arrivals");

    // Assess
    await visible(messageText(b.page, content));
    await waitForUnreadCountShown(b.page, "stream", 1);
    const stored = await org.api(org.users.member2, "GET", "/messages", {
      anchor: "newest",
      num_before: 1,
      num_after: 0,
      narrow: [{ operator: "channel", operand: stream }],
    });
    expect(stored.body.messages).toMatchObject([{ content: `<p>${content}</p>`, subject: "arrivals", sender_id: org.users.member.id }]);
  });

  it("A sends a direct message to B; B sees it arrive and the conversation's unread count", async () => {
    const { a, b } = await twoPeople();
    await watchUnreadCounts(b.page, "dm", org.users.member.fullName);
    const content = unique("a word in private ");

    await goToHash(a.page, dmHash(org.users.member2));
    await sendFromCompose(a.page, content);

    await visible(messageText(b.page, content));
    await visible(linkNamed(b.page, org.users.member.fullName));
    await waitForUnreadCountShown(b.page, "dm", 1);
    const stored = await org.api(org.users.member2, "GET", "/messages", {
      anchor: "newest",
      num_before: 1,
      num_after: 0,
      narrow: [{ operator: "dm", operand: [org.users.member.id] }],
    });
    expect(stored.body.messages).toMatchObject([{ content: `<p>${content}</p>`, type: "private", sender_id: org.users.member.id }]);
  });

  it("B replies in A's topic; A, reading the stream, sees the reply arrive", async () => {
    // Prepare: A's message starts the topic; both open the app.
    const stream = unique("lighthouse");
    const topic = unique("lamp");
    await createStream(org, org.users.owner, stream, [org.users.member, org.users.member2]);
    const question = unique("is the lamp lit ");
    await sendStreamMessage(org, org.users.member, stream, topic, question);
    const { a, b } = await twoPeople();
    await linkNamed(a.page, stream).first().click();
    await visible(messageText(a.page, question));

    // Act: B opens the topic (its link in the feed) and replies there.
    await visible(messageText(b.page, question));
    await linkNamed(b.page, topic).first().click();
    const reply = unique("lit since six ");
    await sendFromCompose(b.page, reply);

    // Assess
    await visible(messageText(a.page, reply));
    const stored = await org.api(org.users.member, "GET", "/messages", {
      anchor: "newest",
      num_before: 1,
      num_after: 0,
      narrow: [{ operator: "channel", operand: stream }],
    });
    expect(stored.body.messages).toMatchObject([{ content: `<p>${reply}</p>`, subject: topic, sender_id: org.users.member2.id }]);
  });
});
