import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  availableVideoChatProviders,
  bigBlueButtonApiUrl,
  bigBlueButtonServer,
  signBigBlueButtonCall,
  verifyBigBlueButtonCall,
  type BigBlueButtonCall,
} from "./video-calls.js";

const SERVER = { url: "https://bbb.example.com/bigbluebutton/", secret: "s3cret" };
const CALL: BigBlueButtonCall = { meeting_id: "zulip-123456789012", name: "Stand-up ✓", lock_settings_disable_cam: true, moderator: 7 };

describe("bigBlueButtonServer", () => {
  it("needs both the URL and the secret, and ends the URL with a slash", () => {
    expect(bigBlueButtonServer({ BIGBLUEBUTTON_URL: "https://bbb.example.com/bigbluebutton" })).toBeNull();
    expect(bigBlueButtonServer({ BIGBLUEBUTTON_SECRET: "s" })).toBeNull();
    expect(bigBlueButtonServer({ BIGBLUEBUTTON_URL: "https://bbb.example.com/bigbluebutton", BIGBLUEBUTTON_SECRET: "s" })).toEqual({
      url: "https://bbb.example.com/bigbluebutton/",
      secret: "s",
    });
  });
});

describe("availableVideoChatProviders", () => {
  it("lists BigBlueButton only with a configured server", () => {
    expect(Object.keys(availableVideoChatProviders({}))).toEqual(["disabled", "jitsi_meet"]);
    const configured = availableVideoChatProviders({ BIGBLUEBUTTON_URL: SERVER.url, BIGBLUEBUTTON_SECRET: SERVER.secret });
    expect(configured.big_blue_button).toEqual({ name: "BigBlueButton", id: 4 });
  });
});

describe("signBigBlueButtonCall / verifyBigBlueButtonCall", () => {
  it("reads back what it signed", () => {
    expect(verifyBigBlueButtonCall(SERVER, signBigBlueButtonCall(SERVER, CALL))).toEqual(CALL);
  });

  it("refuses a changed payload or signature, another server's key, and the unconfigured key", () => {
    const signed = signBigBlueButtonCall(SERVER, CALL);
    const [payload, signature] = signed.split(".") as [string, string];
    const forged = Buffer.from(JSON.stringify({ ...CALL, moderator: 8 })).toString("base64url");
    expect(verifyBigBlueButtonCall(SERVER, `${forged}.${signature}`)).toBeNull();
    const otherLast = signature.endsWith("A") ? "B" : "A";
    expect(verifyBigBlueButtonCall(SERVER, `${payload}.${signature.slice(0, -1)}${otherLast}`)).toBeNull();
    expect(verifyBigBlueButtonCall(SERVER, `${payload}.${signature}=`)).toBeNull();
    expect(verifyBigBlueButtonCall({ ...SERVER, secret: "other" }, signed)).toBeNull();
    expect(verifyBigBlueButtonCall(SERVER, signBigBlueButtonCall(null, CALL))).toBeNull();
  });

  it("refuses a well-signed value whose fields are not a call's", () => {
    // Signed with the right key, but the meeting ID is not one this server makes.
    const odd = signBigBlueButtonCall(SERVER, { ...CALL, meeting_id: "other-meeting" });
    expect(verifyBigBlueButtonCall(SERVER, odd)).toBeNull();
  });
});

describe("bigBlueButtonApiUrl", () => {
  it("percent-encodes every reserved character and appends the SHA-256 checksum of call, query and secret", () => {
    const url = bigBlueButtonApiUrl(SERVER, "create", [
      ["meetingID", "zulip-1"],
      ["name", "A & B (it's ✓)"],
    ]);
    const query = "meetingID=zulip-1&name=A%20%26%20B%20%28it%27s%20%E2%9C%93%29";
    const checksum = createHash("sha256").update(`create${query}s3cret`).digest("hex");
    expect(url).toBe(`https://bbb.example.com/bigbluebutton/api/create?${query}&checksum=${checksum}`);
  });
});
