import { describe, expect, it } from "vitest";
import { queueEmails } from "../../shared/mail/outgoing.js";
import { html, layoutEmail } from "../../shared/mail/template.js";
import { useTestOrg } from "../support/local-stack.js";
import { waitForEmail } from "../support/mailbox.js";

const org = useTestOrg();

describe("the local stack's mailbox", () => {
  it("keeps a queued email as an .eml file with both bodies, the organization's name, and user text escaped", async () => {
    // Prepare
    const name = "<script>alert(1)</script> & co";
    const body = layoutEmail(
      { name: org.realm.name, url: org.url },
      { subject: `Hello ${name}`, text: `Hi ${name}`, html: html`<p>Hi ${name}</p>` },
    );
    // Act
    await queueEmails(org.stack.deps, [{ realm_id: org.realm.id, template: "test_mail", to: { email: "someone@test.example", name: "Someone Ü" }, ...body }]);
    // Assess
    const mail = await waitForEmail(org.stack.mailDir, (m) => m.template === "test_mail");
    expect(mail.to).toBe("someone@test.example");
    expect(mail.subject).toBe(`Hello ${name}`);
    expect(mail.text).toContain(`Hi ${name}`);
    expect(mail.text).toContain(org.realm.name);
    expect(mail.html).toContain("<p>Hi &lt;script&gt;alert(1)&lt;/script&gt; &amp; co</p>");
    expect(mail.html).not.toContain("<script>");
    expect(mail.from).toBe(`noreply@${new URL(org.url).hostname}`);
  });
});
