import { describe, expect, it } from "vitest";
import { logOut } from "./session.js";

describe("logOut", () => {
  it("posts to /accounts/logout with the csrftoken cookie in X-CSRFToken (the server refuses a logout without it)", async () => {
    const calls: { url: string; init: RequestInit }[] = [];
    const fakeFetch = (async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return new Response(JSON.stringify({ result: "success", msg: "" }));
    }) as unknown as typeof fetch;

    await logOut(fakeFetch, () => "other=1; csrftoken=tok%2Ben; x=2");

    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe("/accounts/logout");
    expect(calls[0]!.init).toMatchObject({ method: "POST", headers: { "X-CSRFToken": "tok+en" }, credentials: "same-origin" });
  });
});
