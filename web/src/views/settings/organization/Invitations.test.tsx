// @vitest-environment happy-dom
import { render } from "preact";
import { act } from "preact/test-utils";
import { describe, expect, it } from "vitest";
import { ApiError, type ApiClient, type ParamValue } from "../../../api/client.js";
import type { Chat } from "../../../model/chat.js";
import type { Invite } from "../../../model/invites.js";
import { inviteState } from "../../../model/invites-fixtures.js";
import type { ServerEvent } from "../../../model/types.js";
import { useRenderHost } from "../../test-host.js";
import { Invitations } from "./Invitations.js";
import { ORGANIZATION_SECTIONS } from "./sections.js";

const host = useRenderHost();
const flush = () => act(async () => await new Promise((r) => setTimeout(r, 0)));

const T = 1_717_200_000;
const emailInvite = (id: number, email: string, by = 2, invited_as = 400): Invite => ({
  id,
  email,
  invited: T + id,
  expiry_date: T + 10 * 86_400,
  invited_as,
  invited_by_user_id: by,
  notify_referrer_on_join: true,
  is_multiuse: false,
});
const link = (id: number): Invite => ({ id, invited: T, expiry_date: null, invited_as: 600, invited_by_user_id: 1, link_url: "http://x/join/k/", is_multiuse: true });

/** A fake server holding `invites`; `push(events)` delivers events as the queue would. */
function mount(role: number, invites: Invite[], refuse?: (path: string) => string | null) {
  const calls: { method: string; path: string; params?: Record<string, ParamValue> }[] = [];
  let server = [...invites];
  const api: ApiClient = {
    call: async <T,>(method: string, path: string, params?: Record<string, ParamValue>) => {
      calls.push({ method, path, params });
      const refusal = refuse?.(path);
      if (refusal) throw new ApiError(400, "BAD_REQUEST", refusal);
      if (method === "GET") return { invites: server } as T;
      if (method === "DELETE") server = server.filter((i) => `/invites/${i.is_multiuse ? "multiuse/" : ""}${i.id}` !== path);
      return {} as T;
    },
  };
  const listeners = new Set<(events: ServerEvent[]) => void>();
  const chat = {
    api,
    onEvents: (fn: (events: ServerEvent[]) => void) => {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
  } as unknown as Chat;
  act(() => render(<Invitations chat={chat} state={inviteState(role)} rest={[]} />, host()));
  return {
    calls,
    listeners,
    setServer: (list: Invite[]) => (server = list),
    push: async (events: ServerEvent[]) => {
      for (const fn of listeners) fn(events);
      await flush();
    },
  };
}

const rows = () => [...host().querySelectorAll("tbody tr")].map((tr) => [...tr.querySelectorAll("td")].slice(0, 5).map((td) => td.textContent));
const button = (name: string) => [...document.querySelectorAll("button")].find((b) => (b.getAttribute("aria-label") ?? b.textContent?.trim()) === name);

describe("Organization settings › Invitations", () => {
  it("lists pending invitations newest first with who invited, expiry and role", async () => {
    mount(200, [emailInvite(1, "a@x.org"), link(7), emailInvite(2, "b@x.org", 1, 200)]);
    await flush();
    const r = rows();
    expect(r.map((x) => [x[0], x[1], x[4]])).toEqual([
      ["b@x.org", "Reader", "Administrator"],
      ["a@x.org", "Iago", "Member"],
      ["Reusable link", "Reader", "Guest"],
    ]);
    expect(r[2]![3]).toBe("Never");
    expect(button("Resend invitation to reusable link 7")).toBeUndefined();
  });

  it("refetches on invites_changed and stops listening when closed", async () => {
    const s = mount(200, []);
    await flush();
    expect(host().textContent).toContain("There are no pending invitations.");
    s.setServer([emailInvite(3, "new@x.org")]);
    await s.push([{ id: 5, type: "heartbeat" } as ServerEvent]);
    expect(rows()).toEqual([]);
    await s.push([{ id: 6, type: "invites_changed" }]);
    expect(rows().map((x) => x[0])).toEqual(["new@x.org"]);
    expect(s.calls.filter((c) => c.method === "GET")).toHaveLength(2);
    act(() => render(null, host()));
    expect(s.listeners.size).toBe(0);
  });

  it("revokes after a confirmation, and resends", async () => {
    const s = mount(200, [emailInvite(1, "a@x.org"), link(7)]);
    await flush();
    await act(() => button("Revoke invitation to reusable link 7")!.click());
    const dialog = document.querySelector("dialog")!;
    expect(dialog.textContent).toContain("Revoke this reusable invitation link?");
    await act(() => [...dialog.querySelectorAll("button")].find((b) => b.textContent === "Revoke")!.click());
    await flush();
    expect(s.calls.at(-1)).toMatchObject({ method: "DELETE", path: "/invites/multiuse/7" });
    expect(rows().map((x) => x[0])).toEqual(["a@x.org"]);

    await act(() => button("Resend invitation to a@x.org")!.click());
    await flush();
    expect(s.calls.at(-1)).toMatchObject({ method: "POST", path: "/invites/1/resend" });
    expect(host().textContent).toContain("Invitation sent again to a@x.org.");
  });

  it("shows the server's refusal in the confirmation", async () => {
    mount(200, [emailInvite(1, "a@x.org")], (path) => (path === "/invites/1" ? "No such invitation" : null));
    await flush();
    await act(() => button("Revoke invitation to a@x.org")!.click());
    const dialog = document.querySelector("dialog")!;
    await act(() => [...dialog.querySelectorAll("button")].find((b) => b.textContent === "Revoke")!.click());
    await flush();
    expect(dialog.querySelector("[role=alert]")?.textContent).toBe("No such invitation");
    expect(rows()).toHaveLength(1);
  });

  it("disables what an administrator may not touch: an owner's invitation", async () => {
    mount(200, [emailInvite(1, "boss@x.org", 2, 100)]);
    await flush();
    expect(button("Revoke invitation to boss@x.org")!.hasAttribute("disabled")).toBe(true);
    expect(button("Resend invitation to boss@x.org")!.hasAttribute("disabled")).toBe(true);
  });

  it("shows the fetch's refusal", async () => {
    mount(400, [], () => "Insufficient permission");
    await flush();
    expect(host().querySelector("[role=alert]")?.textContent).toBe("Insufficient permission");
  });

  it("is listed for administrators and inviters, not for members the policy excludes", () => {
    const section = ORGANIZATION_SECTIONS.find((s) => s.id === "invites-list-admin")!;
    expect(section.title).toBe("Invitations");
    expect(section.visible!(inviteState(200, { realm_invite_to_realm_policy: 6 }))).toBe(true);
    expect(section.visible!(inviteState(400))).toBe(true);
    expect(section.visible!(inviteState(400, { realm_invite_to_realm_policy: 2 }))).toBe(false);
    expect(section.visible!(inviteState(600))).toBe(false);
  });
});
