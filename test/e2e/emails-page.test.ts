import { readdir } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { queueEmails } from "../../shared/mail/outgoing.js";
import { html, layoutEmail } from "../../shared/mail/template.js";
import { matchRequestPath } from "../../shared/routes.js";
import { useTestOrg } from "../support/local-stack.js";
import { waitForEmail } from "../support/mailbox.js";

const org = useTestOrg();

const EVIL = `<script>alert("x")</script> & 'co'`;

/** Queues one email and waits until it is in the mailbox. */
async function sendOne(template: string, subject: string, to: { email: string; name?: string }, text = "Hi", body = html`<p>Hi</p>`) {
  const content = layoutEmail({ name: org.realm.name, url: org.url }, { subject, text, html: body });
  await queueEmails(org.stack.deps, [{ realm_id: org.realm.id, template, to, ...content }]);
  return waitForEmail(org.stack.mailDir, (m) => m.template === template);
}

/** The `/emails/<file>` links of a list page, in order. */
function messageLinks(page: string): string[] {
  return [...page.matchAll(/<a href="(\/emails\/[^"]+)">/g)].map((m) => m[1]!);
}

describe("/emails on the local stack", () => {
  it("is in no route table entry: only the local adapter serves it", () => {
    // Assess
    expect(matchRequestPath("GET", "/emails").kind).not.toBe("found");
    expect(matchRequestPath("POST", "/emails/clear").kind).not.toBe("found");
  });

  it("lists the mailbox newest first with date, recipient, subject and template, everything escaped", async () => {
    // Prepare
    const first = await sendOne("page_first", "First mail", { email: "first@test.example" });
    const second = await sendOne("page_second", `Second ${EVIL}`, { email: "second@test.example", name: EVIL });
    // Act
    const res = await fetch(`${org.url}/emails`);
    const page = await res.text();
    // Assess
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(messageLinks(page)).toEqual([`/emails/${encodeURIComponent(second.file)}`, `/emails/${encodeURIComponent(first.file)}`]);
    expect(page).toContain("Second &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; 'co'");
    expect(page).toContain(`&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; 'co' &lt;second@test.example&gt;`);
    expect(page).toContain("<code>page_second</code>");
    expect(page).toMatch(/<td class="date">\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z<\/td>/);
    expect(page).not.toContain("<script>");
  });

  it("opens one email: headers, the HTML in a sandboxed frame, the plain text with clickable links", async () => {
    // Prepare
    const link = `${org.url}/accounts/password/reset/abc/?x=1&y=2`;
    const mail = await sendOne("page_open", `Open ${EVIL}`, { email: "open@test.example" }, `Follow ${link}.\n${EVIL}`, html`<p>${EVIL}</p><a href="${link}">reset</a>`);
    // Act
    const res = await fetch(`${org.url}/emails/${encodeURIComponent(mail.file)}`);
    const page = await res.text();
    // Assess
    expect(res.status).toBe(200);
    expect(page).toContain("<h1>Open &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; 'co'</h1>");
    expect(page).toContain("<dt>To</dt><dd>open@test.example</dd>");
    expect(page).toContain("<dt>Template</dt><dd>page_open</dd>");
    const frame = /<iframe title="HTML body" sandbox="([^"]*)" srcdoc="([^"]*)"><\/iframe>/.exec(page);
    expect(frame?.[1]).toBe("allow-popups allow-popups-to-escape-sandbox");
    // The frame's document is the email's HTML, escaped once as an attribute value.
    const srcdoc = frame![2]!.replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
    expect(srcdoc.startsWith("<!DOCTYPE html>")).toBe(true);
    expect(srcdoc).toContain('<head><base target="_blank">');
    expect(srcdoc.replace('<base target="_blank">', "")).toContain(mail.html.trim());
    const escapedLink = link.replace(/&/g, "&amp;");
    expect(page).toContain(`Follow <a href="${escapedLink}" target="_blank" rel="noopener noreferrer">${escapedLink}</a>.`);
    expect(page).not.toContain("<script>");
  });

  it("answers 404 for a file that is not in the mailbox, and for names that leave it", async () => {
    // Act
    const missing = await fetch(`${org.url}/emails/nothing-here.eml`);
    const escape = await fetch(`${org.url}/emails/..%2F..%2Fpackage.json`);
    // Assess
    expect(missing.status).toBe(404);
    expect(escape.status).toBe(404);
    expect(await escape.text()).not.toContain("zulip-serverless");
  });

  it("clears the mailbox with a same-origin POST, refusing other origins and GET", async () => {
    // Prepare
    await sendOne("page_clear", "To clear", { email: "clear@test.example" });
    // Act
    const get = await fetch(`${org.url}/emails/clear`);
    const foreign = await fetch(`${org.url}/emails/clear`, { method: "POST", headers: { origin: "https://evil.example" }, redirect: "manual" });
    const kept = (await readdir(org.stack.mailDir)).filter((n) => n.endsWith(".eml"));
    const cleared = await fetch(`${org.url}/emails/clear`, { method: "POST", headers: { origin: org.url }, redirect: "manual" });
    const after = await fetch(`${org.url}/emails`);
    // Assess
    expect(get.status).toBe(405);
    expect(foreign.status).toBe(403);
    expect(kept.length).toBeGreaterThan(0);
    expect(cleared.status).toBe(303);
    expect(cleared.headers.get("location")).toBe("/emails");
    expect((await readdir(org.stack.mailDir)).filter((n) => n.endsWith(".eml"))).toEqual([]);
    expect(await after.text()).toContain(`<p id="empty">No emails yet.</p>`);
  });
});
