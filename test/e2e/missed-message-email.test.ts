import { beforeAll, describe, expect, it } from "vitest";
import { runMissedMessageEmails } from "../../shared/actions/notifications/missed-message-emails.js";
import { doCreateUser } from "../../shared/actions/users/create-user.js";
import { getPendingMissedMessages } from "../../shared/data/missed-messages.js";
import { realmUrl } from "../../shared/domain/email.js";
import { Role } from "../../shared/domain/roles.js";
import type { TestUser } from "../support/api-client.js";
import { useTestOrg } from "../support/local-stack.js";
import { readMailbox, waitForEmail, type SentEmail } from "../support/mailbox.js";
import { createStream } from "./streams-helpers.js";

/*
 * Missed-message email (https://zulip.com/help/email-notifications) through
 * HTTP on the local stack. Most tests give the recipient a 15-minute batching
 * period, so the batch's real (delayed) job stays out of the way, and end the
 * batch by running its job with a clock past the period: what a batch holds
 * and what it mails is then checked without waiting. One test goes the whole
 * way with a one-second period.
 */

const org = useTestOrg();
const LONG_PERIOD = 900;
let site = "";

beforeAll(() => {
  site = realmUrl(org.realm, org.stack.deps.config);
});

async function ok(res: { body: Record<string, unknown> }): Promise<Record<string, unknown>> {
  expect(res.body).toMatchObject({ result: "success" });
  return res.body;
}

/** A fresh user whose batches last {@link LONG_PERIOD} unless `period` says otherwise. */
async function recipient(name: string, settings: Record<string, unknown> = {}, period = LONG_PERIOD): Promise<TestUser> {
  const user = await org.createUser(name);
  await ok(await org.api(user, "PATCH", "/settings", { email_notifications_batching_period_seconds: period, ...settings }));
  return user;
}

async function dm(sender: TestUser, to: TestUser[], content: string): Promise<number> {
  const body = await ok(await org.api(sender, "POST", "/messages", { type: "direct", to: JSON.stringify(to.map((u) => u.id)), content }));
  return body.id as number;
}

async function post(sender: TestUser, stream: string, topic: string, content: string): Promise<number> {
  const body = await ok(await org.api(sender, "POST", "/messages", { type: "stream", to: stream, topic, content }));
  return body.id as number;
}

/** The message IDs waiting in a user's batch, once the send's deferred work (the decision) has run. */
async function pendingIds(user: TestUser): Promise<number[]> {
  await org.stack.drainDeferredWork();
  const pending = await getPendingMissedMessages(org.stack.deps, user.id);
  return pending ? [...pending.messages.keys()].sort((a, b) => a - b) : [];
}

/** Ends a user's batch now: its job run with a clock past the period, then the emails it queued sent. */
async function endBatch(user: TestUser): Promise<SentEmail[]> {
  await org.stack.drainDeferredWork();
  const later = { ...org.stack.deps, clock: { now: () => Date.now() + (LONG_PERIOD + 1) * 1000 } };
  await runMissedMessageEmails(later, { realm_id: org.realm.id, user_id: user.id });
  await org.stack.drainDeferredWork();
  expect(await getPendingMissedMessages(org.stack.deps, user.id)).toBeUndefined();
  return mailsTo(user);
}

async function mailsTo(user: TestUser): Promise<SentEmail[]> {
  return (await readMailbox(org.stack.mailDir)).filter((m) => m.template === "missed_message" && m.to === user.email);
}

describe("missed-message email", () => {
  it("mails a missed direct message once when the batch ends, with its content and links", async () => {
    // Prepare
    const sender = await org.createUser("mm-sender-a");
    const to = await recipient("mm-to-a", {}, 1);
    // Act
    await dm(sender, [to], "Lunch at noon? **bring** snacks");
    const mail = await waitForEmail(org.stack.mailDir, (m) => m.template === "missed_message" && m.to === to.email);
    // Assess
    expect(mail.subject).toBe(`DMs with ${sender.fullName}`);
    expect(mail.text).toContain(`${sender.fullName}:\n> Lunch at noon? **bring** snacks`);
    expect(mail.html).toContain("<strong>bring</strong>");
    expect(mail.links).toContain(`${site}/#narrow/dm/${sender.id}-${sender.fullName.replace(/\s+/g, "-")}`);
    expect(mail.links).toContain(`${site}/#settings/notifications`);
    expect(await getPendingMissedMessages(org.stack.deps, to.id)).toBeUndefined();
    await org.stack.drainDeferredWork();
    expect(await mailsTo(to)).toHaveLength(1);
  });

  it("mails two direct messages of one batch in one email, and another conversation's in its own", async () => {
    const [alice, carol] = [await org.createUser("mm-alice"), await org.createUser("mm-carol")];
    const to = await recipient("mm-to-b");
    const first = await dm(alice, [to], "first note");
    const second = await dm(alice, [to], "second note");
    const third = await dm(carol, [to], "from carol");
    expect(await pendingIds(to)).toEqual([first, second, third]);

    const mails = await endBatch(to);
    expect(mails).toHaveLength(2);
    const fromAlice = mails.find((m) => m.subject === `DMs with ${alice.fullName}`)!;
    expect(fromAlice.text).toContain("first note");
    expect(fromAlice.text).toContain("second note");
    expect(fromAlice.text).not.toContain("from carol");
    expect(mails.find((m) => m.subject === `DMs with ${carol.fullName}`)!.text).toContain("from carol");
  });

  it("names a group conversation by the others", async () => {
    const [alice, carol] = [await org.createUser("mm-g-alice"), await org.createUser("mm-g-carol")];
    const to = await recipient("mm-to-g");
    await dm(alice, [to, carol], "group hello");
    const [mail] = await endBatch(to);
    expect(mail!.subject).toBe(`Group DMs with ${alice.fullName} and ${carol.fullName}`);
    expect(mail!.links).toContain(`${site}/#narrow/dm/${[alice.id, carol.id].sort((a, b) => a - b).join(",")}-group`);
  });

  it("mails nothing for a message read before the batch ends", async () => {
    const sender = await org.createUser("mm-sender-r");
    const to = await recipient("mm-to-r");
    const id = await dm(sender, [to], "read me soon");
    expect(await pendingIds(to)).toEqual([id]);
    await ok(await org.api(to, "POST", "/messages/flags", { messages: JSON.stringify([id]), op: "add", flag: "read" }));
    expect(await endBatch(to)).toEqual([]);
  });

  it("mails nobody who is active right now, nor the sender", async () => {
    const sender = await recipient("mm-sender-p");
    const to = await recipient("mm-to-p");
    await ok(await org.api(to, "POST", "/users/me/presence", { status: "active" }));
    await dm(sender, [to], "you are here");
    expect(await pendingIds(to)).toEqual([]);
    expect(await pendingIds(sender)).toEqual([]);
    await dm(sender, [sender], "a note to myself");
    expect(await pendingIds(sender)).toEqual([]);
  });

  it("mails nothing when the user turned DM and mention emails off, or muted the sender", async () => {
    const sender = await org.createUser("mm-sender-s");
    const off = await recipient("mm-to-off", { enable_offline_email_notifications: false });
    const muter = await recipient("mm-to-mute");
    await ok(await org.api(muter, "POST", `/users/me/muted_users/${sender.id}`));
    await dm(sender, [off], "anyone?");
    await dm(sender, [muter], "hello?");
    expect(await pendingIds(off)).toEqual([]);
    expect(await pendingIds(muter)).toEqual([]);
  });

  it("leaves the content out when the user asks so", async () => {
    const sender = await org.createUser("mm-sender-c");
    const to = await recipient("mm-to-c", { message_content_in_email_notifications: false });
    await dm(sender, [to], "a private matter");
    const [mail] = await endBatch(to);
    expect(mail!.subject).toBe("New messages");
    expect(mail!.text).not.toContain("a private matter");
    expect(mail!.html).not.toContain("a private matter");
  });

  it("mails a mention in a stream with a '#stream > topic' subject; a wildcard mention not in a muted topic", async () => {
    const sender = await org.createUser("mm-sender-m");
    const to = await recipient("mm-to-m");
    const quiet = await recipient("mm-to-quiet");
    const stream = await createStream(org, sender, "mm-plans", { principals: [sender.id, to.id, quiet.id] });
    await ok(await org.api(quiet, "POST", "/user_topics", { stream_id: stream.stream_id, topic: "roadmap", visibility_policy: 1 }));

    const mention = await post(sender, "mm-plans", "roadmap", `@**${to.fullName}** please review`);
    await post(sender, "mm-plans", "roadmap", "no mention here");
    const wildcard = await post(sender, "mm-plans", "roadmap", "@**all** heads up");
    expect(await pendingIds(to)).toEqual([mention, wildcard]);
    expect(await pendingIds(quiet)).toEqual([]);

    const mails = await endBatch(to);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe("#mm-plans > roadmap");
    expect(mails[0]!.text).toContain("please review");
    expect(mails[0]!.text).toContain("heads up");
    expect(mails[0]!.links).toContain(`${site}/#narrow/channel/${stream.stream_id}-mm-plans/topic/roadmap`);
  });

  it("mails a personal mention even in a muted topic (Zulip's rule)", async () => {
    const sender = await org.createUser("mm-sender-mt");
    const to = await recipient("mm-to-mt");
    const stream = await createStream(org, sender, "mm-muted", { principals: [sender.id, to.id] });
    await ok(await org.api(to, "POST", "/user_topics", { stream_id: stream.stream_id, topic: "noise", visibility_policy: 1 }));
    const id = await post(sender, "mm-muted", "noise", `@**${to.fullName}** this one matters`);
    expect(await pendingIds(to)).toEqual([id]);
  });

  it("mails every message of a stream with email notifications on, and of a followed topic", async () => {
    const sender = await org.createUser("mm-sender-e");
    const streamFan = await recipient("mm-to-fan");
    const follower = await recipient("mm-to-follow");
    const stream = await createStream(org, sender, "mm-news", { principals: [sender.id, streamFan.id, follower.id] });
    await ok(
      await org.api(streamFan, "POST", "/users/me/subscriptions/properties", {
        subscription_data: JSON.stringify([{ stream_id: stream.stream_id, property: "email_notifications", value: true }]),
      }),
    );
    await ok(await org.api(follower, "POST", "/user_topics", { stream_id: stream.stream_id, topic: "launch", visibility_policy: 3 }));
    const launch = await post(sender, "mm-news", "launch", "we ship today");
    const other = await post(sender, "mm-news", "misc", "unrelated");
    expect(await pendingIds(streamFan)).toEqual([launch, other]);
    expect(await pendingIds(follower)).toEqual([launch]);
    expect((await endBatch(streamFan)).map((m) => m.subject).sort()).toEqual(["#mm-news > launch", "#mm-news > misc"]);
  });

  it("notifies a mentioned subscriber of a large stream (the deferred fan-out)", async () => {
    const sender = await org.createUser("mm-sender-l");
    const to = await recipient("mm-to-l");
    const crowd = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        doCreateUser(org.stack.deps, org.realm, { email: `mm-crowd-${i}@test.example`, full_name: `MM Crowd ${i}`, role: Role.MEMBER }),
      ),
    );
    await createStream(org, sender, "mm-crowd", { principals: [sender.id, to.id, ...crowd.map((u) => u.user_id)] });
    await org.stack.drainDeferredWork();
    const id = await post(sender, "mm-crowd", "town hall", `@**${to.fullName}** you are up`);
    expect(await pendingIds(to)).toEqual([id]);
    const [mail] = await endBatch(to);
    expect(mail!.subject).toBe("#mm-crowd > town hall");
    expect(mail!.text).toContain("you are up");
    // Nobody of the crowd was mentioned, and their default settings mail no stream messages.
    expect(await getPendingMissedMessages(org.stack.deps, crowd[3]!.user_id)).toBeUndefined();
  }, 300_000);
});
