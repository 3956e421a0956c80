import { describe, expect, it } from "vitest";
import { webhookUrl, zuliprc } from "./webhook-url.js";

describe("webhookUrl", () => {
  it("builds the integration's endpoint with the key, stream and topic, each encoded", () => {
    expect(webhookUrl({ site: "https://chat.example.com/", integration: "github", apiKey: "abc123", stream: "dev ops & more", topic: "CI/CD" })).toBe(
      "https://chat.example.com/api/v1/external/github?api_key=abc123&stream=dev%20ops%20%26%20more&topic=CI%2FCD",
    );
  });

  it("leaves out an empty stream and topic (the bot then messages its owner)", () => {
    expect(webhookUrl({ site: "http://127.0.0.1:9991", integration: "json", apiKey: "k", stream: "", topic: "" })).toBe(
      "http://127.0.0.1:9991/api/v1/external/json?api_key=k",
    );
  });
});

describe("zuliprc", () => {
  it("is the [api] section the Python bindings read", () => {
    expect(zuliprc("deploy-bot@example.com", "k1", "https://chat.example.com/")).toBe(
      "[api]\nemail=deploy-bot@example.com\nkey=k1\nsite=https://chat.example.com\n",
    );
  });
});
