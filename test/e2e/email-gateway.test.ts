import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { MAX_INCOMING_EMAIL_BYTES } from "../../shared/actions/email-gateway/process-email.js";
import { incomingEmailMarker } from "../../shared/data/email-gateway.js";
import { listLocalFiles } from "../../infra/local/s3-local.js";
import { LOCAL_INCOMING_EMAIL_PATH } from "../../infra/local/incoming-email.js";
import type { TestUser } from "../support/api-client.js";
import { useTestOrg } from "../support/local-stack.js";
import { createStreamId } from "./streams-helpers.js";
import { fetchFile } from "./uploads-helpers.js";

const org = useTestOrg();

/** A raw email: headers, then a text body or multipart parts. */
function eml(headers: Record<string, string>, body: string, contentType = "text/plain; charset=utf-8"): string {
  const lines = Object.entries({ From: "Ann Example <ann@outside.example>", Subject: "Hello", "MIME-Version": "1.0", ...headers }).map(
    ([k, v]) => `${k}: ${v}`,
  );
  return [...lines, `Content-Type: ${contentType}`, "", body].join("\r\n");
}

/** A multipart/alternative email with a text and an HTML part, and optional attachments (multipart/mixed around it). */
function multipart(headers: Record<string, string>, text: string, html: string, files: { name: string; type: string; bytes: Buffer }[] = []): string {
  const alt = ["--alt", "Content-Type: text/plain; charset=utf-8", "", text, "--alt", "Content-Type: text/html; charset=utf-8", "", html, "--alt--"].join("\r\n");
  if (files.length === 0) return eml(headers, alt, 'multipart/alternative; boundary="alt"');
  const parts = [`--mix\r\nContent-Type: multipart/alternative; boundary="alt"\r\n\r\n${alt}`];
  for (const f of files) {
    parts.push(
      `--mix\r\nContent-Type: ${f.type}; name="${f.name}"\r\nContent-Disposition: attachment; filename="${f.name}"\r\n` +
        `Content-Transfer-Encoding: base64\r\n\r\n${f.bytes.toString("base64")}`,
    );
  }
  return eml(headers, `${parts.join("\r\n")}\r\n--mix--`, 'multipart/mixed; boundary="mix"');
}

/** Delivers a raw email as SES would (the local stand-in), runs the queue dry, and returns the object key. */
async function deliver(raw: string): Promise<string> {
  const res = await fetch(`${org.url}${LOCAL_INCOMING_EMAIL_PATH}`, { method: "POST", body: raw });
  expect(res.status).toBe(200);
  const { key } = (await res.json()) as { key: string };
  await org.stack.drainDeferredWork();
  return key;
}

const marker = (key: string) => incomingEmailMarker(org.stack.deps, createHash("sha256").update(key).digest("hex"));

/** The newest messages of a stream, raw Markdown, oldest first. */
async function streamMessages(user: TestUser, streamId: number): Promise<Record<string, any>[]> {
  const res = await org.api(user, "GET", "/messages", {
    anchor: "newest",
    num_before: 20,
    num_after: 0,
    narrow: [{ operator: "channel", operand: streamId }],
    apply_markdown: false,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.messages as Record<string, any>[];
}

let streamId = 0;
let address = "";
let privateId = 0;

beforeAll(async () => {
  const { owner, member } = org.users;
  streamId = await createStreamId(org, owner, "mailbox");
  address = (await org.api(member, "GET", `/streams/${streamId}/email_address`)).body.email as string;
  privateId = await createStreamId(org, member, "secret mail", { inviteOnly: true, principals: [member.id] });
});

describe("incoming email to a stream's address", () => {
  it("posts the text part as the Email Gateway bot, the subject without Re: as topic, the sender first, the quote and footer out", async () => {
    const { member } = org.users;
    const text = "Lunch at noon works.\r\n\r\n-- \r\nAnn, ACME Corp\r\n\r\nOn Mon, 1 Jan 2024, Bob <bob@x.org> wrote:\r\n> Lunch?\r\n";
    const key = await deliver(eml({ To: `Team <${address}>`, Subject: "Re: Lunch plans" }, text));

    const [message] = (await streamMessages(member, streamId)).slice(-1);
    expect(message).toMatchObject({
      sender_full_name: "Email Gateway",
      sender_email: "emailgateway@zulip.com",
      subject: "Lunch plans",
      content: "From: Ann Example <ann@outside.example>\nLunch at noon works.",
      client: "Internal",
    });
    expect(await marker(key)).toEqual({ status: "posted", message_ids: [message!.id] });
    // The raw email is gone from the bucket once posted.
    expect(await listLocalFiles(org.stack.deps.config.S3_ENDPOINT!, key)).toEqual([]);
  });

  it("honours the address's options: prefer-html converts the HTML part, include-footer and include-quotes keep what is cut by default", async () => {
    const { member } = org.users;
    const html = address.replace(".show-sender@", ".prefer-html@");
    await deliver(multipart({ To: html, Subject: "Report" }, "plain version", "<p>The <b>HTML</b> <a href=\"https://x.org/r\">report</a></p>"));
    const keepAll = address.replace(".show-sender@", ".include-footer.include-quotes@");
    await deliver(eml({ To: keepAll, Subject: "" }, "Answer\n--\nSig\n\n> quoted"));

    const [first, second] = (await streamMessages(member, streamId)).slice(-2);
    expect(first).toMatchObject({ subject: "Report", content: "The **HTML** [report](https://x.org/r)" });
    expect(second).toMatchObject({ subject: "(no topic)", content: "Answer\n--\nSig\n\n> quoted" });
  });

  it("uploads attachments and links them after the body; subscribers can read the files", async () => {
    const { member } = org.users;
    const pdf = Buffer.from("%PDF-1.4 tiny");
    await deliver(multipart({ Cc: address, To: "someone@else.example", Subject: "Fwd: files" }, "See attached.", "<p>See attached.</p>", [
      { name: "report [v2].pdf", type: "application/pdf", bytes: pdf },
    ]));
    const [message] = (await streamMessages(member, streamId)).slice(-1);
    const match = /\n\[report v2\.pdf\]\((\/user_uploads\/[^)]+)\)$/.exec(message!.content as string);
    expect(match, message!.content as string).not.toBeNull();
    expect(message!.subject).toBe("files");
    const got = await fetchFile(org, member, match![1]!);
    expect(Buffer.from(got.bytes).equals(pdf)).toBe(true);
  });

  it("posts to a private stream whose address it has, as Zulip's gateway bot may", async () => {
    const { member } = org.users;
    const secret = (await org.api(member, "GET", `/streams/${privateId}/email_address`)).body.email as string;
    await deliver(eml({ To: secret, Subject: "Private note" }, "for subscribers only"));
    const [message] = (await streamMessages(member, privateId)).slice(-1);
    expect(message).toMatchObject({ subject: "Private note", content: "From: Ann Example <ann@outside.example>\nfor subscribers only" });
  });

  it("posts nothing for an unknown token, another domain, an archived stream, an empty body, an email over the size limit or with a virus", async () => {
    const { owner, member } = org.users;
    const archivedId = await createStreamId(org, owner, "closing soon");
    const archivedAddress = (await org.api(owner, "GET", `/streams/${archivedId}/email_address`)).body.email as string;
    expect((await org.api(owner, "DELETE", `/streams/${archivedId}`)).status).toBe(200);
    const before = (await streamMessages(member, streamId)).length;
    const domain = address.split("@")[1]!;

    const cases: [string, string][] = [
      [eml({ To: `mailbox.${"0".repeat(32)}@${domain}` }, "unknown"), "Bad stream token from email recipient"],
      [eml({ To: address.replace(`@${domain}`, "@elsewhere.example") }, "wrong domain"), "Missing recipient in mirror email"],
      [eml({ To: archivedAddress }, "archived"), `stream ${archivedId} is archived`],
      [eml({ To: address }, "  \r\n"), "Email has no nonempty body sections; ignoring."],
      [eml({ To: address }, "x".repeat(MAX_INCOMING_EMAIL_BYTES)), "over the limit"],
      [eml({ To: address, "X-SES-Virus-Verdict": "FAIL" }, "infected"), "Email failed the virus scan"],
    ];
    for (const [raw, reason] of cases) {
      const key = await deliver(raw);
      const mark = await marker(key);
      expect(mark?.status).toBe("refused");
      expect(mark?.reason).toContain(reason);
      expect(await listLocalFiles(org.stack.deps.config.S3_ENDPOINT!, key)).toEqual([]);
    }
    expect((await streamMessages(member, streamId)).length).toBe(before);
  });

  it("posts once however often the job is delivered", async () => {
    const { member } = org.users;
    const raw = eml({ To: address, Subject: "Once" }, "only once");
    const key = await deliver(raw);
    // SQS redelivers, S3 announces the object twice: the same key again, with the object put back.
    await org.stack.deps.files.put(key, Buffer.from(raw), { contentType: "message/rfc822" });
    await org.stack.deps.deferred.enqueue([{ kind: "incoming_email", payload: { key } }, { kind: "incoming_email", payload: { key } }]);
    await org.stack.drainDeferredWork();
    const once = (await streamMessages(member, streamId)).filter((m) => m.subject === "Once");
    expect(once).toHaveLength(1);
  });
});
