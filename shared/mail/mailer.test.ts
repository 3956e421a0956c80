import { describe, expect, it } from "vitest";
import type { Logger } from "../logger.js";
import { lazyMailer, senderAddress, unconfiguredMailer, type Mailer, type OutgoingEmail } from "./mailer.js";

const EMAIL: OutgoingEmail = { realm_id: 7, template: "invitation", to: { email: "a@example.com" }, subject: "s", text: "t", html: "<p>t</p>" };

describe("senderAddress", () => {
  it("is EMAIL_FROM, else noreply@ the root domain's host without its port", () => {
    expect(senderAddress({ EMAIL_FROM: "chat@example.com", ROOT_DOMAIN: "x.example" })).toBe("chat@example.com");
    expect(senderAddress({ ROOT_DOMAIN: "127.0.0.1:9991" })).toBe("noreply@127.0.0.1");
  });
});

describe("unconfiguredMailer", () => {
  it("drops the email, logging an error that names the template and organization, and does not throw", async () => {
    // Prepare
    const errors: unknown[] = [];
    const log: Logger = { debug() {}, info() {}, warn() {}, error: (msg, data) => errors.push({ msg, data }) };
    // Act
    await unconfiguredMailer(log).send(EMAIL);
    // Assess
    expect(errors).toEqual([
      { msg: 'email not sent: this deployment has no email settings (docs/deploying.md, "Email")', data: { template: "invitation", realm_id: 7 } },
    ]);
  });
});

describe("lazyMailer", () => {
  it("builds the mailer on the first send only, and again after a failed build", async () => {
    // Prepare
    let builds = 0;
    const sent: string[] = [];
    const real: Mailer = { send: async (e) => void sent.push(e.template) };
    const mailer = lazyMailer(async () => {
      builds += 1;
      if (builds === 1) throw new Error("no SES client");
      return real;
    });
    // Act
    const first = mailer.send(EMAIL);
    // Assess
    await expect(first).rejects.toThrow("no SES client");
    await mailer.send(EMAIL);
    await mailer.send(EMAIL);
    expect(builds).toBe(2);
    expect(sent).toEqual(["invitation", "invitation"]);
  });
});
