import { SendMessageCommand } from "@aws-sdk/client-sqs";
import { describe, expect, it } from "vitest";
import { emailSuppression } from "../../shared/data/email-suppressions.js";
import { queueEmails } from "../../shared/mail/outgoing.js";
import type { OutgoingEmail } from "../../shared/mail/mailer.js";
import { useTestOrg } from "../support/local-stack.js";
import { readMailbox } from "../support/mailbox.js";

const org = useTestOrg();

/** Puts a job body on the stack's queue as EventBridge's rule would (a raw SQS message), then waits until it has run. */
async function deliverRaw(body: unknown): Promise<void> {
  await org.stack.sqs.client.send(new SendMessageCommand({ QueueUrl: org.stack.sqs.queueUrl, MessageBody: JSON.stringify(body) }));
  await org.stack.drainDeferredWork();
}

/** A rendered email to `to`, of a template unique to the test. */
function email(to: string, template: string): OutgoingEmail {
  return { realm_id: org.realm.id, template, to: { email: to }, subject: "Hello", text: "Hi", html: "<p>Hi</p>" };
}

/** The mailbox's emails of one template, by recipient. */
async function sentTo(template: string): Promise<string[]> {
  return (await readMailbox(org.stack.mailDir)).filter((m) => m.template === template).map((m) => m.to).sort();
}

describe("SES feedback and the suppression list", () => {
  it("suppresses a permanent bounce's recipients (SES's recipient objects), and send_email then skips them", async () => {
    // Prepare: the job as the rule's input transformer builds it from SES's "Email Bounced" event
    await deliverRaw({
      kind: "ses_feedback",
      payload: {
        event_type: "Bounce",
        bounce_type: "Permanent",
        recipients: [
          { emailAddress: "Gone@Bounce.example", action: "failed", status: "5.1.1", diagnosticCode: "smtp; 550 5.1.1 user unknown" },
          { emailAddress: "also-gone@bounce.example" },
        ],
      },
    });
    // Act
    await queueEmails(org.stack.deps, [
      email("gone@bounce.example", "suppression_a"),
      email("ALSO-GONE@bounce.example", "suppression_a"),
      email("fine@bounce.example", "suppression_a"),
    ]);
    await org.stack.drainDeferredWork();
    // Assess
    expect(await emailSuppression(org.stack.deps, "gone@bounce.example")).toEqual({
      email: "gone@bounce.example",
      reason: "bounce",
      bounce_type: "Permanent",
      suppressed_at: expect.any(Number),
    });
    const entry = await emailSuppression(org.stack.deps, "ALSO-GONE@BOUNCE.EXAMPLE");
    expect(entry?.reason).toBe("bounce");
    expect(Math.abs(entry!.suppressed_at - Date.now() / 1000)).toBeLessThan(120);
    expect(await sentTo("suppression_a")).toEqual(["fine@bounce.example"]);
  });

  it("suppresses a complaint's recipients", async () => {
    // Act
    await deliverRaw({ kind: "ses_feedback", payload: { event_type: "Complaint", recipients: [{ emailAddress: "angry@complaint.example" }] } });
    await queueEmails(org.stack.deps, [email("angry@complaint.example", "suppression_b"), email("calm@complaint.example", "suppression_b")]);
    await org.stack.drainDeferredWork();
    // Assess
    expect(await emailSuppression(org.stack.deps, "angry@complaint.example")).toEqual({
      email: "angry@complaint.example",
      reason: "complaint",
      suppressed_at: expect.any(Number),
    });
    expect(await sentTo("suppression_b")).toEqual(["calm@complaint.example"]);
  });

  it("does not suppress transient or undetermined bounces: the next email is sent", async () => {
    // Act
    await deliverRaw({
      kind: "ses_feedback",
      payload: { event_type: "Bounce", bounce_type: "Transient", recipients: [{ emailAddress: "full@transient.example" }] },
    });
    await deliverRaw({ kind: "ses_feedback", payload: { event_type: "Bounce", bounce_type: "Undetermined", recipients: ["odd@transient.example"] } });
    await queueEmails(org.stack.deps, [email("full@transient.example", "suppression_c"), email("odd@transient.example", "suppression_c")]);
    await org.stack.drainDeferredWork();
    // Assess
    expect(await emailSuppression(org.stack.deps, "full@transient.example")).toBeUndefined();
    expect(await emailSuppression(org.stack.deps, "odd@transient.example")).toBeUndefined();
    expect(await sentTo("suppression_c")).toEqual(["full@transient.example", "odd@transient.example"]);
  });

  it("takes one entry per address when SES lists it twice, and a later report overwrites the reason", async () => {
    // Act
    await deliverRaw({
      kind: "ses_feedback",
      payload: { event_type: "Bounce", bounce_type: "Permanent", recipients: ["twice@dup.example", "TWICE@dup.example"] },
    });
    await deliverRaw({ kind: "ses_feedback", payload: { event_type: "Complaint", recipients: ["twice@dup.example"] } });
    // Assess
    expect((await emailSuppression(org.stack.deps, "twice@dup.example"))?.reason).toBe("complaint");
  });
});
