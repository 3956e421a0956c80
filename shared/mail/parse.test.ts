import { describe, expect, it } from "vitest";
import { parseIncomingEmail } from "./parse.js";

const raw = (lines: string[]) => new TextEncoder().encode(lines.join("\r\n"));

describe("parseIncomingEmail", () => {
  it("lists recipients most accurate first: Delivered-To, the Received for clause, To, Cc (groups flattened, duplicates once)", async () => {
    // Prepare
    const email = raw([
      "Received: from mail.example by inbound-smtp.us-east-1.amazonaws.com with SMTP id abc for s.0123@gw.example; Mon, 1 Jan 2024 10:00:00 +0000",
      "Received: from older.example for other@old.example",
      "Delivered-To: first@gw.example",
      "From: \"Ann, Example\" <Ann@Outside.example>",
      "To: Team: a@x.example, B@X.example;, first@gw.example",
      "Cc: c@x.example",
      "Subject: =?utf-8?q?Caf=C3=A9?=",
      "X-SES-Virus-Verdict: PASS",
      "Content-Type: text/plain; charset=utf-8",
      "",
      "body",
    ]);
    // Act
    const parsed = await parseIncomingEmail(email);
    // Assess
    expect(parsed.recipients).toEqual(["first@gw.example", "s.0123@gw.example", "a@x.example", "B@X.example", "c@x.example"]);
    expect(parsed).toMatchObject({ fromHeader: "Ann, Example <Ann@Outside.example>", fromAddress: "ann@outside.example", subject: "Café", text: "body\n", virusFound: false });
  });

  it("returns attachments that name a file with their bytes, and notices SES's virus verdict", async () => {
    const email = raw([
      "From: a@x.example",
      "To: b@gw.example",
      "X-SES-Virus-Verdict: FAIL",
      'Content-Type: multipart/mixed; boundary="b"',
      "",
      "--b",
      "Content-Type: text/plain",
      "",
      "see file",
      "--b",
      'Content-Type: application/octet-stream; name="data.bin"',
      'Content-Disposition: attachment; filename="data.bin"',
      "Content-Transfer-Encoding: base64",
      "",
      Buffer.from([0, 1, 2, 255]).toString("base64"),
      "--b--",
    ]);
    const parsed = await parseIncomingEmail(email);
    expect(parsed.attachments).toEqual([{ filename: "data.bin", contentType: "application/octet-stream", bytes: new Uint8Array([0, 1, 2, 255]) }]);
    expect(parsed.virusFound).toBe(true);
    expect(parsed.text?.trim()).toBe("see file");
  });
});
