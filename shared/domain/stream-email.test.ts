import { describe, expect, it } from "vitest";
import { decodeStreamEmailAddress, emailGatewayDomain, streamEmailAddress } from "./stream-email.js";

const token = "af64447e9e39374841063747ade8e6b0";

describe("streamEmailAddress", () => {
  it("puts the lower-cased name, the token and show-sender before the domain", () => {
    expect(streamEmailAddress("test", token, "testserver")).toBe(`test.${token}.show-sender@testserver`);
    expect(streamEmailAddress("Denmark", token, "example.com")).toBe(`denmark.${token}.show-sender@example.com`);
  });

  it("turns runs of non-word characters into one hyphen; a hyphen the slug trims drops the name", () => {
    expect(streamEmailAddress("new  stream", token, "x.org")).toBe(`new-stream.${token}.show-sender@x.org`);
    expect(streamEmailAddress("stream!!", token, "x.org")).toBe(`${token}.show-sender@x.org`);
    expect(streamEmailAddress("a/b c_d", token, "x.org")).toBe(`a-b-c_d.${token}.show-sender@x.org`);
  });

  it("leaves the name out when it cannot be written in ASCII without losing letters", () => {
    expect(streamEmailAddress("Café", token, "x.org")).toBe(`cafe.${token}.show-sender@x.org`);
    expect(streamEmailAddress("日本語", token, "x.org")).toBe(`${token}.show-sender@x.org`);
    expect(streamEmailAddress("!!!", token, "x.org")).toBe(`${token}.show-sender@x.org`);
  });
});

describe("emailGatewayDomain", () => {
  it("uses the configured domain, else the root domain without its port", () => {
    expect(emailGatewayDomain({ EMAIL_GATEWAY_DOMAIN: "mail.example.com", ROOT_DOMAIN: "chat.example.com" })).toBe("mail.example.com");
    expect(emailGatewayDomain({ ROOT_DOMAIN: "127.0.0.1:9991" })).toBe("127.0.0.1");
    expect(emailGatewayDomain({ ROOT_DOMAIN: "chat.example.com" })).toBe("chat.example.com");
  });
});

describe("decodeStreamEmailAddress", () => {
  const base = { showSender: false, includeFooter: false, preferText: true };

  it("reads back what streamEmailAddress writes: the token and show-sender", () => {
    const address = streamEmailAddress("Denmark", token, "example.com");
    expect(decodeStreamEmailAddress(address, "example.com")).toEqual({ token, options: { ...base, showSender: true } });
  });

  it("takes a token alone, any case, with + or . separators and every option", () => {
    expect(decodeStreamEmailAddress(`${token.toUpperCase()}@Example.COM`, "example.com")).toEqual({ token, options: base });
    expect(decodeStreamEmailAddress(`denmark+${token}+include-footer+include-quotes+prefer-html@example.com`, "example.com")).toEqual({
      token,
      options: { ...base, includeFooter: true, includeQuotes: true, preferText: false },
    });
    expect(decodeStreamEmailAddress(`${token}.prefer-html.prefer-text@example.com`, "example.com")?.options.preferText).toBe(true);
  });

  it("refuses other domains, malformed tokens and extra parts", () => {
    expect(decodeStreamEmailAddress(`denmark.${token}@other.org`, "example.com")).toBeUndefined();
    expect(decodeStreamEmailAddress(`denmark.${token}@sub.example.com`, "example.com")).toBeUndefined();
    expect(decodeStreamEmailAddress("denmark.nothex@example.com", "example.com")).toBeUndefined();
    expect(decodeStreamEmailAddress(`a.b.${token}@example.com`, "example.com")).toBeUndefined();
    expect(decodeStreamEmailAddress("@example.com", "example.com")).toBeUndefined();
    expect(decodeStreamEmailAddress("show-sender@example.com", "example.com")).toBeUndefined();
  });
});
