// @vitest-environment happy-dom
import { render } from "preact";
import { act } from "preact/test-utils";
import { describe, expect, it, vi } from "vitest";
import { useRenderHost } from "./test-host.js";
import { ApiError } from "../api/client.js";
import { Login, loginErrorMessage } from "./Login.js";

describe("loginErrorMessage", () => {
  it("shows the server's words, with the wait for a rate limit", () => {
    expect(loginErrorMessage(new ApiError(401, "USER_DEACTIVATED", "Account is deactivated"))).toBe("Account is deactivated");
    expect(
      loginErrorMessage(new ApiError(429, "RATE_LIMIT_HIT", "API usage exceeded rate limit", { "retry-after": 2.4 })),
    ).toBe("API usage exceeded rate limit. Try again in 3 seconds.");
    expect(loginErrorMessage(new ApiError(0, "NETWORK", "Failed to fetch"))).toBe(
      "Could not reach the server. Check your connection and try again.",
    );
  });
});

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

describe("Login", () => {
  const host = useRenderHost();

  const field = (label: string) => {
    const l = [...host().querySelectorAll("label")].find((x) => x.textContent === label)!;
    return host().querySelector<HTMLInputElement>(`#${CSS.escape(l.htmlFor)}`)!;
  };
  const link = (name: string) => [...host().querySelectorAll("a")].find((a) => a.textContent === name);
  const button = () => host().querySelector<HTMLButtonElement>("button")!;
  const flush = () => act(async () => await new Promise((r) => setTimeout(r, 0)));

  function fill() {
    field("Email").value = "iago@zulip.com";
    field("Password").value = "wrong";
  }

  it("shows the organization's name and signs in with the form's fields", async () => {
    const requests: [string, RequestInit | undefined][] = [];
    let finish!: (r: Response) => void;
    const fetchImpl = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
      requests.push([String(url), init]);
      if (String(url) === "/api/v1/server_settings") return json(200, { result: "success", realm_name: "Zulip Dev" });
      if (String(url) === "/json/accounts/signup_settings") return json(200, { result: "success", realm_invite_required: false });
      return new Promise<Response>((resolve) => (finish = resolve));
    }) as unknown as typeof fetch;
    const onLoggedIn = vi.fn();
    act(() => render(<Login onLoggedIn={onLoggedIn} fetchImpl={fetchImpl} />, host()));
    await flush();
    expect(host().querySelector("h1")!.textContent).toBe("Log in to Zulip Dev");
    // The organization needs no invitation: the page links to sign-up, as to the reset page.
    expect(link("Sign up")?.getAttribute("href")).toBe("/register/");
    expect(link("Forgot your password?")?.getAttribute("href")).toBe("/accounts/password/reset/");
    fill();
    await act(async () => button().click());
    expect(button().disabled).toBe(true);
    const [url, init] = requests.find(([u]) => u === "/accounts/login")!;
    expect(url).toBe("/accounts/login");
    expect(String(init!.body)).toBe("username=iago%40zulip.com&password=wrong");
    finish(json(200, { result: "success", msg: "", user_id: 5, email: "iago@zulip.com" }));
    await flush();
    expect(onLoggedIn).toHaveBeenCalledWith({ result: "success", msg: "", user_id: 5, email: "iago@zulip.com" });
  });

  it("shows the server's refusal in the form and enables the button again", async () => {
    const msg = "Please enter a correct email and password. Note that both fields may be case-sensitive.";
    const fetchImpl = (async (url: string) =>
      url === "/accounts/login" ? json(401, { result: "error", code: "BAD_REQUEST", msg }) : json(404, {})) as unknown as typeof fetch;
    const onLoggedIn = vi.fn();
    act(() => render(<Login onLoggedIn={onLoggedIn} fetchImpl={fetchImpl} />, host()));
    await flush();
    expect(host().querySelector("h1")!.textContent).toBe("Log in");
    // Whether the organization needs an invitation is unknown: no "Sign up" link.
    expect(link("Sign up")).toBeUndefined();
    expect(link("Forgot your password?")).toBeDefined();
    fill();
    await act(async () => button().click());
    await flush();
    expect(host().querySelector('[role="alert"]')!.textContent).toBe(msg);
    expect(button().disabled).toBe(false);
    expect(onLoggedIn).not.toHaveBeenCalled();
  });
});
