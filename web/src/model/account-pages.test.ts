import { describe, expect, it } from "vitest";
import { accountPageOf } from "./account-pages.js";

const KEY = "abcdefghijklmnopqrstuvwx";

describe("accountPageOf", () => {
  it("names the page of each mailed link's path, with or without the trailing slash", () => {
    expect(accountPageOf(`/join/${KEY}/`)).toEqual({ kind: "signup", key: KEY });
    expect(accountPageOf(`/join/${KEY}`)).toEqual({ kind: "signup", key: KEY });
    expect(accountPageOf(`/accounts/do_confirm/${KEY}`)).toEqual({ kind: "signup", key: KEY });
    expect(accountPageOf(`/accounts/password/reset/${KEY}/`)).toEqual({ kind: "password-reset", key: KEY });
    expect(accountPageOf(`/accounts/confirm_new_email/${KEY}/`)).toEqual({ kind: "confirm-new-email", key: KEY });
    expect(accountPageOf("/accounts/password/reset/")).toEqual({ kind: "password-reset-request" });
    expect(accountPageOf("/register/")).toEqual({ kind: "register" });
    expect(accountPageOf("/register")).toEqual({ kind: "register" });
  });

  it("leaves the chat's paths to the chat", () => {
    expect(accountPageOf("/")).toBeNull();
    expect(accountPageOf("/static/app/index.html")).toBeNull();
    expect(accountPageOf("/join/")).toBeNull();
    expect(accountPageOf(`/join/${KEY}/more`)).toBeNull();
    expect(accountPageOf("/accounts/login/")).toBeNull();
  });

  it("decodes an escaped key, and keeps a broken escape as it is (the server knows no such key)", () => {
    expect(accountPageOf("/join/a%20b/")).toEqual({ kind: "signup", key: "a b" });
    expect(accountPageOf("/join/%E0%A4%A/")).toEqual({ kind: "signup", key: "%E0%A4%A" });
  });
});
