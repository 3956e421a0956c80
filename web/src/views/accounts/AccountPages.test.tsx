// @vitest-environment happy-dom
import { render } from "preact";
import { act } from "preact/test-utils";
import { describe, expect, it, vi } from "vitest";
import { ApiError, type ApiClient, type ParamValue } from "../../api/client.js";
import type { AccountPage } from "../../model/account-pages.js";
import { useRenderHost } from "../test-host.js";
import { AccountPages } from "./AccountPages.js";

const KEY = "abcdefghijklmnopqrstuvwx";

type Answer = unknown | ((params: Record<string, ParamValue>) => unknown);

/** A fake server: answers by "METHOD /path" (a value, a function of the params, or an ApiError to throw), recording every call. */
function fakeApi(answers: Record<string, Answer>) {
  const calls: { route: string; params: Record<string, ParamValue> }[] = [];
  const api: ApiClient = {
    async call<T>(method: string, path: string, params: Record<string, ParamValue> = {}) {
      const route = `${method} ${path}`;
      calls.push({ route, params });
      if (!(route in answers)) throw new ApiError(404, "BAD_REQUEST", "Not Found");
      const answer = answers[route];
      const value = typeof answer === "function" ? (answer as (p: Record<string, ParamValue>) => unknown)(params) : answer;
      if (value instanceof ApiError) throw value;
      return { result: "success", msg: "", ...(value as object) } as T;
    },
  };
  return { api, calls, posts: () => calls.filter((c) => !c.route.startsWith("GET")) };
}

const SETTINGS = { realm_name: "Zulip Dev", realm_invite_required: true, password_min_length: 6, password_min_guesses: 10000 };
const INVITATION = {
  kind: "invitation",
  realm_name: "Zulip Dev",
  realm_url: "http://zulip.test",
  email: "newbie@zulip.test",
  invited_as: 400,
  streams: ["general", "design"],
};
const problem = (code: string, msg: string) => new ApiError(400, code, msg);

describe("account pages", () => {
  const host = useRenderHost();
  const flush = () => act(async () => await new Promise((r) => setTimeout(r, 0)));
  const heading = () => host().querySelector("h1")!.textContent;
  const field = (label: string) => {
    const l = [...host().querySelectorAll("label")].find((x) => x.textContent === label);
    return l ? host().querySelector<HTMLInputElement>(`#${CSS.escape(l.htmlFor)}`) : null;
  };
  const button = (name: string) => [...host().querySelectorAll("button")].find((b) => b.textContent === name)!;
  const link = (name: string) => [...host().querySelectorAll("a")].find((a) => a.textContent === name);
  const alert = () => host().querySelector('[role="alert"]')?.textContent ?? null;
  async function open(page: AccountPage, api: ApiClient, onSignedIn = vi.fn()) {
    act(() => render(<AccountPages api={api} page={page} onSignedIn={onSignedIn} />, host()));
    await flush();
    return onSignedIn;
  }
  async function submit(name: string) {
    await act(async () => button(name).click());
    await flush();
  }

  describe("sign-up from a link", () => {
    it("shows the invitation (organization, address, streams, password rule) and signs up with the name and password", async () => {
      // Prepare
      const server = fakeApi({ "GET /accounts/signup_settings": SETTINGS, [`GET /signup/${KEY}`]: INVITATION, "POST /signup": { user_id: 9, email: INVITATION.email } });
      const onSignedIn = await open({ kind: "signup", key: KEY }, server.api);
      expect(heading()).toBe("Create your account");
      expect(host().textContent).toContain("You're joining Zulip Dev.");
      expect(host().textContent).toContain("You'll be subscribed to #general and #design.");
      expect(field("Email")!.value).toBe("newbie@zulip.test");
      expect(field("Email")!.readOnly).toBe(true);
      expect(field("Password")!.minLength).toBe(6);
      expect(host().querySelector(`#${CSS.escape(field("Password")!.getAttribute("aria-describedby")!)}`)!.textContent).toBe("At least 6 characters.");
      // Act
      field("Full name")!.value = "New Person";
      field("Password")!.value = "a long passphrase";
      await submit("Sign up");
      // Assess
      expect(server.posts()).toEqual([{ route: "POST /signup", params: { key: KEY, full_name: "New Person", password: "a long passphrase", email: undefined } }]);
      expect(onSignedIn).toHaveBeenCalledOnce();
    });

    it("asks a reusable link's visitor for their email, and names the role they are invited as", async () => {
      const server = fakeApi({
        [`GET /signup/${KEY}`]: { ...INVITATION, kind: "multiuse_invite", email: null, invited_as: 600, streams: [] },
        "POST /signup": { user_id: 10, email: "guest@zulip.test" },
      });
      const onSignedIn = await open({ kind: "signup", key: KEY }, server.api);
      expect(host().textContent).toContain("You're joining Zulip Dev as a guest.");
      expect(host().textContent).not.toContain("subscribed");
      expect(field("Email")!.readOnly).toBe(false);
      field("Email")!.value = "guest@zulip.test";
      field("Full name")!.value = "Guest";
      field("Password")!.value = "another passphrase";
      await submit("Sign up");
      expect(server.posts()[0]!.params).toEqual({ key: KEY, full_name: "Guest", password: "another passphrase", email: "guest@zulip.test" });
      expect(onSignedIn).toHaveBeenCalledOnce();
    });

    it("shows the server's refusal in the form and lets the person try again", async () => {
      const server = fakeApi({ [`GET /signup/${KEY}`]: INVITATION, "POST /signup": problem("BAD_REQUEST", "The password is too weak.") });
      const onSignedIn = await open({ kind: "signup", key: KEY }, server.api);
      field("Full name")!.value = "New Person";
      field("Password")!.value = "aaaaaa";
      await submit("Sign up");
      expect(alert()).toBe("The password is too weak.");
      expect(button("Sign up").disabled).toBe(false);
      expect(onSignedIn).not.toHaveBeenCalled();
    });

    it.each([
      ["CONFIRMATION_EXPIRED", "This link has expired"],
      ["CONFIRMATION_USED", "This link has already been used"],
      ["CONFIRMATION_NOT_FOUND", "This link is not valid"],
    ])("says so when the link is refused with %s, with the way to the login page", async (code, title) => {
      const server = fakeApi({ [`GET /signup/${KEY}`]: problem(code, "Whatever the server says") });
      await open({ kind: "signup", key: KEY }, server.api);
      expect(heading()).toBe(title);
      expect(host().querySelector("form")).toBeNull();
      expect(link("Go to the login page")!.getAttribute("href")).toBe("/");
    });

    it("turns into the problem page when the link is used up between opening and signing up", async () => {
      const server = fakeApi({ [`GET /signup/${KEY}`]: INVITATION, "POST /signup": problem("CONFIRMATION_USED", "Used") });
      const onSignedIn = await open({ kind: "signup", key: KEY }, server.api);
      field("Full name")!.value = "New Person";
      field("Password")!.value = "a long passphrase";
      await submit("Sign up");
      expect(heading()).toBe("This link has already been used");
      expect(document.activeElement).toBe(host().querySelector("h1"));
      expect(onSignedIn).not.toHaveBeenCalled();
    });

    it("shows another failure to load with a way to try again", async () => {
      const server = fakeApi({ [`GET /signup/${KEY}`]: new ApiError(0, "NETWORK", "Failed to fetch") });
      await open({ kind: "signup", key: KEY }, server.api);
      expect(heading()).toBe("Something went wrong");
      expect(alert()).toBe("Unable to reach the server. Check your connection and try again.");
      expect(link("Try again")).toBeDefined();
    });
  });

  describe("password reset", () => {
    it("asks for the address, then says to check the mail whatever it is", async () => {
      const server = fakeApi({ "POST /accounts/password/reset": {} });
      await open({ kind: "password-reset-request" }, server.api);
      expect(heading()).toBe("Reset your password");
      field("Email")!.value = "nobody@zulip.test";
      await submit("Send reset link");
      expect(server.posts()).toEqual([{ route: "POST /accounts/password/reset", params: { email: "nobody@zulip.test" } }]);
      expect(heading()).toBe("Check your email");
      expect(host().textContent).toContain("If nobody@zulip.test has an account here");
      expect(document.activeElement).toBe(host().querySelector("h1"));
    });

    it("shows a rate limit's refusal in the form", async () => {
      const server = fakeApi({ "POST /accounts/password/reset": problem("RATE_LIMIT_HIT", "API usage exceeded rate limit") });
      await open({ kind: "password-reset-request" }, server.api);
      field("Email")!.value = "iago@zulip.test";
      await submit("Send reset link");
      expect(heading()).toBe("Reset your password");
      expect(alert()).toBe("API usage exceeded rate limit");
    });

    it("sets the new password typed twice, then offers to log in", async () => {
      const server = fakeApi({
        "GET /accounts/signup_settings": { ...SETTINGS, password_min_length: 8 },
        [`GET /accounts/password/reset/${KEY}`]: { email: "iago@zulip.test" },
        [`POST /accounts/password/reset/${KEY}`]: {},
      });
      await open({ kind: "password-reset", key: KEY }, server.api);
      expect(heading()).toBe("Choose a new password");
      expect(field("Email")!.value).toBe("iago@zulip.test");
      expect(field("New password")!.minLength).toBe(8);
      // Two different passwords: refused here, nothing sent.
      field("New password")!.value = "correct horse";
      field("Confirm new password")!.value = "correct house";
      await submit("Change password");
      expect(alert()).toBe("The passwords do not match.");
      expect(server.posts()).toEqual([]);
      field("Confirm new password")!.value = "correct horse";
      await submit("Change password");
      expect(server.posts()).toEqual([{ route: `POST /accounts/password/reset/${KEY}`, params: { new_password: "correct horse" } }]);
      expect(heading()).toBe("Password changed");
      expect(link("Log in")!.getAttribute("href")).toBe("/");
    });

    it("says a used link is used, with the way to ask for a new one", async () => {
      const server = fakeApi({ [`GET /accounts/password/reset/${KEY}`]: problem("CONFIRMATION_USED", "Used") });
      await open({ kind: "password-reset", key: KEY }, server.api);
      expect(heading()).toBe("This link has already been used");
      expect(link("Request a new reset link")!.getAttribute("href")).toBe("/accounts/password/reset/");
    });

    it("shows the server's password-strength refusal in the form", async () => {
      const server = fakeApi({
        [`GET /accounts/password/reset/${KEY}`]: { email: "iago@zulip.test" },
        [`POST /accounts/password/reset/${KEY}`]: problem("BAD_REQUEST", "The password is too weak."),
      });
      await open({ kind: "password-reset", key: KEY }, server.api);
      field("New password")!.value = "aaaaaa";
      field("Confirm new password")!.value = "aaaaaa";
      await submit("Change password");
      expect(alert()).toBe("The password is too weak.");
      expect(heading()).toBe("Choose a new password");
    });
  });

  describe("sign-up by email", () => {
    it("says sign-up is by invitation where the organization requires one", async () => {
      const server = fakeApi({ "GET /accounts/signup_settings": SETTINGS });
      await open({ kind: "register" }, server.api);
      expect(heading()).toBe("Sign-up is by invitation");
      expect(host().querySelector("form")).toBeNull();
    });

    it("mails a confirmation link where it does not, then says to check the mail", async () => {
      const server = fakeApi({ "GET /accounts/signup_settings": { ...SETTINGS, realm_invite_required: false }, "POST /signup/request": {} });
      await open({ kind: "register" }, server.api);
      expect(heading()).toBe("Sign up for Zulip Dev");
      field("Email")!.value = "new@zulip.test";
      await submit("Sign up");
      expect(server.posts()).toEqual([{ route: "POST /signup/request", params: { email: "new@zulip.test" } }]);
      expect(heading()).toBe("Check your email");
      expect(host().textContent).toContain("We sent a link to new@zulip.test.");
    });

    it("shows the server's refusal of the address in the form", async () => {
      const msg = "Your email address, new@elsewhere.test, is not in one of the domains that are allowed to register for accounts in this organization.";
      const server = fakeApi({ "GET /accounts/signup_settings": { ...SETTINGS, realm_invite_required: false }, "POST /signup/request": problem("BAD_REQUEST", msg) });
      await open({ kind: "register" }, server.api);
      field("Email")!.value = "new@elsewhere.test";
      await submit("Sign up");
      expect(alert()).toBe(msg);
      expect(heading()).toBe("Sign up for Zulip Dev");
    });
  });

  describe("new email confirmation", () => {
    it("confirms as the page opens and says the new address", async () => {
      const server = fakeApi({ [`POST /accounts/confirm_new_email/${KEY}`]: { email: "iago@new.test" } });
      await open({ kind: "confirm-new-email", key: KEY }, server.api);
      expect(server.posts()).toHaveLength(1);
      expect(heading()).toBe("Email address changed");
      expect(host().textContent).toContain("Your email address is now iago@new.test.");
      expect(link("Go to the app")!.getAttribute("href")).toBe("/");
    });

    it("says an expired link has expired", async () => {
      const server = fakeApi({ [`POST /accounts/confirm_new_email/${KEY}`]: problem("CONFIRMATION_EXPIRED", "Expired") });
      await open({ kind: "confirm-new-email", key: KEY }, server.api);
      expect(heading()).toBe("This link has expired");
    });
  });
});
