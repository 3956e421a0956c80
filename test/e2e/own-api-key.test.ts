import { describe, expect, it } from "vitest";
import { useTestOrg } from "../support/local-stack.js";
import { jsonCall, webLogin } from "../support/web-session.js";

const org = useTestOrg();

describe("POST /json/fetch_api_key", () => {
  it("answers the signed-in person's key and email after their password, and refuses a wrong one with Zulip's message", async () => {
    // Prepare
    const member = org.users.member;
    const session = await webLogin(org.url, member.email, `${member.email}-password`);
    // Act
    const wrong = await jsonCall(org.url, session, "POST", "/fetch_api_key", { password: "not-it" });
    const right = await jsonCall(org.url, session, "POST", "/fetch_api_key", { password: `${member.email}-password` });
    // Assess
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ result: "error", msg: "Password is incorrect.", code: "BAD_REQUEST" });
    expect(right.status).toBe(200);
    expect(right.body).toEqual({ result: "success", msg: "", api_key: member.apiKey, email: member.email });
  });

  it("needs the session: without one it is refused as every /json route is", async () => {
    const res = await jsonCall(org.url, null, "POST", "/fetch_api_key", { password: "x" });
    expect(res.status).toBe(401);
    expect(res.body.msg).toBe("Not logged in: API authentication or user session required");
  });
});

describe("POST /users/me/api_key/regenerate", () => {
  it("gives the caller a new key; the old one stops working at once", async () => {
    // Prepare
    const member2 = org.users.member2;
    // Act
    const res = await org.api(member2, "POST", "/users/me/api_key/regenerate");
    // Assess
    expect(res.status).toBe(200);
    expect(res.body.api_key).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(res.body.api_key).not.toBe(member2.apiKey);
    expect((await org.api(member2, "GET", "/users/me")).status).toBe(401);
    expect((await org.api({ ...member2, apiKey: res.body.api_key }, "GET", "/users/me")).status).toBe(200);
  });

  it("refuses a bot: its owner regenerates it through /bots/{bot_id}/api_key/regenerate", async () => {
    const res = await org.api(org.users.bot, "POST", "/users/me/api_key/regenerate");
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe("This endpoint does not accept bot requests.");
  });
});
