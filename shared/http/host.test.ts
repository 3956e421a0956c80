import { describe, expect, it } from "vitest";
import { subdomainOf } from "./host.js";

describe("subdomainOf", () => {
  it("maps the root domain to the default organization and names below it to their subdomain", () => {
    expect(subdomainOf("chat.example.com", "chat.example.com")).toBe("");
    expect(subdomainOf("Acme.Chat.Example.com", "chat.example.com")).toBe("acme");
    expect(subdomainOf("127.0.0.1:9991", "127.0.0.1:9991")).toBe("");
    expect(subdomainOf("acme.127.0.0.1:9991", "127.0.0.1:9991")).toBe("acme");
    expect(subdomainOf("chat.example.com:443", "chat.example.com")).toBe("");
  });

  it("answers undefined for a host outside the root domain", () => {
    expect(subdomainOf("evil.example.net", "chat.example.com")).toBeUndefined();
    expect(subdomainOf("notchat.example.com", "chat.example.com")).toBeUndefined();
    expect(subdomainOf("10.0.0.1", "chat.example.com")).toBeUndefined();
    expect(subdomainOf("", "chat.example.com")).toBeUndefined();
  });
});
