// @vitest-environment happy-dom
import { render } from "preact";
import { act } from "preact/test-utils";
import { describe, expect, it, vi } from "vitest";
import { ApiError, type ApiClient, type ParamValue } from "../../api/client.js";
import type { Chat } from "../../model/chat.js";
import { inviteState } from "../../model/invites-fixtures.js";
import { useRenderHost } from "../test-host.js";
import { InviteDialog } from "./InviteDialog.js";

const host = useRenderHost();
const flush = () => act(async () => await new Promise((r) => setTimeout(r, 0)));

type Call = { method: string; path: string; params: Record<string, ParamValue> };

/** A fake server: records calls and answers with `answer(call)` (a value, or a thrown ApiError). */
function mount(role: number, answer: (c: Call) => unknown = () => ({}), realm: Record<string, unknown> = {}) {
  const calls: Call[] = [];
  const api: ApiClient = {
    call: async <T,>(method: string, path: string, params: Record<string, ParamValue> = {}) => {
      const c = { method, path, params };
      calls.push(c);
      return answer(c) as T;
    },
  };
  const onClose = vi.fn();
  act(() => render(<InviteDialog chat={{ api } as unknown as Chat} state={inviteState(role, realm)} onClose={onClose} />, host()));
  return { calls, onClose };
}

const byLabel = <T extends HTMLElement>(text: string) => {
  const l = [...host().querySelectorAll("label")].find((x) => x.textContent?.trim() === text);
  if (!l) throw new Error(`no label ${text}`);
  return host().querySelector<T>(`#${CSS.escape(l.htmlFor)}`)!;
};
const button = (name: string) => [...host().querySelectorAll("button")].find((b) => b.textContent?.trim() === name);
const tab = (name: string) => [...host().querySelectorAll<HTMLButtonElement>('[role="tab"]')].find((b) => b.textContent === name);
const type = async (el: HTMLTextAreaElement | HTMLInputElement, value: string) => {
  el.value = value;
  await act(() => void el.dispatchEvent(new Event("input", { bubbles: true })));
};
const choose = async (el: HTMLSelectElement | HTMLInputElement, value: string | boolean) => {
  if (typeof value === "boolean") (el as HTMLInputElement).checked = value;
  else el.value = value;
  await act(() => void el.dispatchEvent(new Event("change", { bubbles: true })));
};
const submit = async () => {
  await act(() => void host().querySelector("form")!.dispatchEvent(new Event("submit", { bubbles: true, cancelable: true })));
  await flush();
};

describe("InviteDialog", () => {
  it("sends an email invitation with the chosen expiry, role, channels and notification", async () => {
    const { calls } = mount(200);
    expect(host().querySelector("h2")?.textContent).toBe("Invite users to organization");
    expect(tab("Invite by email")?.getAttribute("aria-selected")).toBe("true");
    // Administrators may invite up to administrators; the default channel is preselected and fixed.
    expect([...byLabel<HTMLSelectElement>("Users join as").options].map((o) => o.textContent)).toEqual([
      "Organization administrators",
      "Organization moderators",
      "Members",
      "Guests",
    ]);
    expect([...byLabel<HTMLSelectElement>("Invitation expires after").options].map((o) => o.textContent)).toEqual(["1 day", "10 days", "30 days", "Never expires"]);
    expect(byLabel<HTMLInputElement>("#general (default)").checked).toBe(true);
    expect(byLabel<HTMLInputElement>("#general (default)").disabled).toBe(true);
    expect(host().textContent).not.toContain("#secret");

    await type(byLabel("Emails (one on each line or comma-separated)"), "new@x.org\nHamlet <two@x.org>, new@x.org");
    await choose(byLabel("Invitation expires after"), "never");
    await choose(byLabel("Users join as"), "300");
    await choose(byLabel("#random"), true);
    await choose(byLabel("Notify me when they join"), false);
    await submit();

    expect(calls).toEqual([
      {
        method: "POST",
        path: "/invites",
        params: {
          invitee_emails: "new@x.org,two@x.org",
          invite_expires_in_minutes: null,
          invite_as: 300,
          stream_ids: [12],
          include_realm_default_subscriptions: true,
          notify_referrer_on_join: false,
        },
      },
    ]);
    expect(host().querySelector('[role="status"]')?.textContent).toContain("Invitations sent to 2 people:new@x.orgtwo@x.org");
    expect(byLabel<HTMLTextAreaElement>("Emails (one on each line or comma-separated)").value).toBe("");
  });

  it("lists each skipped address with the server's reason after a partial failure", async () => {
    mount(400, () => {
      throw new ApiError(400, "INVITATION_FAILED", "Some of those addresses are already using Zulip, so we didn't send them an invitation. We did send invitations to everyone else!", {
        errors: [["u3@example.com", "Already has an account.", false]],
        sent_invitations: true,
      });
    });
    // Members grant member or guest only, and have no "Invitation link" tab (administrators create links).
    expect([...byLabel<HTMLSelectElement>("Users join as").options].map((o) => o.value)).toEqual(["400", "600"]);
    expect(tab("Invitation link")).toBeUndefined();
    await type(byLabel("Emails (one on each line or comma-separated)"), "fresh@x.org, u3@example.com");
    await submit();
    const alert = host().querySelector('[role="alert"]')!;
    expect(alert.textContent).toContain("Some of those addresses are already using Zulip");
    expect([...alert.querySelectorAll("li")].map((li) => li.textContent)).toEqual(["u3@example.com: Already has an account."]);
    expect([...host().querySelectorAll('[aria-label="Invited"] li')].map((li) => li.textContent)).toEqual(["fresh@x.org"]);
    expect(byLabel<HTMLTextAreaElement>("Emails (one on each line or comma-separated)").value).toBe("u3@example.com");
  });

  it("shows the server's refusal and sends nothing without an address", async () => {
    const { calls } = mount(400, () => {
      throw new ApiError(400, "BAD_REQUEST", "Insufficient permission");
    });
    await submit();
    expect(calls).toEqual([]);
    expect(host().querySelector('[role="alert"]')?.textContent).toBe("You must specify at least one email address.");
    await type(byLabel("Emails (one on each line or comma-separated)"), "a@x.org");
    await submit();
    expect(host().querySelector('[role="alert"]')?.textContent).toBe("Insufficient permission");
    expect(host().querySelector('[aria-label="Invited"]')).toBeNull();
  });

  it("creates a reusable link and copies it", async () => {
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    const { calls } = mount(200, () => ({ invite_link: "http://chat.example/join/abcdefghijklmnopqrstuvwx/" }));
    await act(() => tab("Invitation link")!.click());
    expect(tab("Invitation link")?.getAttribute("aria-selected")).toBe("true");
    expect(host().textContent).not.toContain("Notify me when they join");
    await choose(byLabel("Default channels for this organization"), false);
    await choose(byLabel("#general (default)"), false);
    await choose(byLabel("#design"), true);
    await act(() => button("Create link")!.click());
    await flush();
    expect(calls).toEqual([
      {
        method: "POST",
        path: "/invites/multiuse",
        params: { invite_expires_in_minutes: 14400, invite_as: 400, stream_ids: [11], include_realm_default_subscriptions: false },
      },
    ]);
    expect(byLabel<HTMLInputElement>("Invitation link").value).toBe("http://chat.example/join/abcdefghijklmnopqrstuvwx/");
    await act(() => button("Copy link")!.click());
    await flush();
    expect(writeText).toHaveBeenCalledWith("http://chat.example/join/abcdefghijklmnopqrstuvwx/");
    expect(host().querySelector(".invite-link [role=status]")?.textContent).toBe("Link copied.");
  });

  it("moves between the tabs with the arrow keys", async () => {
    mount(100);
    const first = tab("Invite by email")!;
    expect(first.tabIndex).toBe(0);
    expect(tab("Invitation link")!.tabIndex).toBe(-1);
    await act(() => void first.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowRight", bubbles: true })));
    expect(tab("Invitation link")?.getAttribute("aria-selected")).toBe("true");
    expect(button("Create link")).toBeDefined();
  });

  it("disables the channel list, with the reason, for someone who may not add people to channels", async () => {
    const { calls } = mount(400, () => ({}), { realm_invite_to_stream_policy: 2 });
    expect(byLabel<HTMLInputElement>("#design").disabled).toBe(true);
    expect(host().textContent).toContain("Only administrators can add other people to channels in this organization.");
    await type(byLabel("Emails (one on each line or comma-separated)"), "a@x.org");
    await submit();
    expect(calls[0]!.params.stream_ids).toEqual([]);
    expect(calls[0]!.params.include_realm_default_subscriptions).toBe(true);
  });

  it("explains instead of a form when the organization lets the reader invite nobody", () => {
    mount(400, () => ({}), { realm_invite_to_realm_policy: 2 });
    expect(host().querySelector("form")).toBeNull();
    expect(host().textContent).toContain("You do not have permission to invite users to this organization.");
  });
});
