// @vitest-environment happy-dom
import { render } from "preact";
import { act } from "preact/test-utils";
import { describe, expect, it } from "vitest";
import { ApiError } from "../../../api/client.js";
import type { ChatState } from "../../../model/store.js";
import { useRenderHost } from "../../test-host.js";
import type { SettingField } from "./form-logic.js";
import { SettingsForm } from "./SettingsForm.js";
import { exportStatus } from "./DataExports.js";

const FIELDS: SettingField[] = [
  { name: "mandatory_topics", label: "Require topics", kind: "bool" },
  { name: "message_content_edit_limit_seconds", label: "Time limit for editing messages", kind: "time-limit" },
  { name: "waiting_period_threshold", label: "Waiting period", kind: "number", ownerOnly: true },
];

const stateOf = (role: number) => ({ me: { user_id: 1, email: "", full_name: "" }, users: new Map([[1, { user_id: 1, role }]]), realmSettings: {} }) as unknown as ChatState;

const flush = () => act(async () => await new Promise((r) => setTimeout(r, 0)));

describe("SettingsForm", () => {
  const host = useRenderHost();
  const control = (label: string) => {
    const l = [...host().querySelectorAll("label")].find((x) => x.textContent === label)!;
    return host().querySelector<HTMLInputElement & HTMLSelectElement>(`#${CSS.escape(l.htmlFor)}`)!;
  };
  const button = (name: string) => [...host().querySelectorAll("button")].find((b) => b.textContent === name);

  it("saves only the changed setting and shows the server's refusal", async () => {
    const sent: Record<string, unknown>[] = [];
    let refuse = true;
    const save = async (params: Record<string, unknown>) => {
      sent.push(params);
      if (refuse) throw new ApiError(400, "BAD_REQUEST", "Must be an organization owner");
    };
    const saved = { mandatory_topics: false, message_content_edit_limit_seconds: 600, waiting_period_threshold: 0 };
    render(<SettingsForm title="Test" fields={FIELDS} saved={saved} state={stateOf(100)} save={save} />, host());
    expect(button("Save changes")).toBeUndefined();

    const limit = control("Time limit for editing messages");
    limit.value = "unlimited";
    await act(() => void limit.dispatchEvent(new Event("change", { bubbles: true })));
    await act(() => button("Save changes")!.click());
    await flush();
    expect(sent).toEqual([{ message_content_edit_limit_seconds: "unlimited" }]);
    expect(host().querySelector("[role=alert]")?.textContent).toBe("Must be an organization owner");

    refuse = false;
    await act(() => button("Save changes")!.click());
    await flush();
    expect(sent).toHaveLength(2);
    expect(host().querySelector("[role=alert]")).toBeNull();
  });

  it("Discard drops the edits", async () => {
    render(<SettingsForm title="Test" fields={FIELDS} saved={{ mandatory_topics: false }} state={stateOf(200)} save={async () => undefined} />, host());
    const box = control("Require topics");
    box.checked = true;
    await act(() => void box.dispatchEvent(new Event("change", { bubbles: true })));
    await act(() => button("Discard")!.click());
    expect(button("Save changes")).toBeUndefined();
    expect(control("Require topics").checked).toBe(false);
  });

  it("shows a member disabled controls and why; an administrator owner-only ones", async () => {
    render(<SettingsForm title="Test" fields={FIELDS} saved={{}} state={stateOf(400)} save={async () => undefined} />, host());
    expect(control("Require topics").disabled).toBe(true);
    expect(host().textContent).toContain("Only organization administrators can change this");
    render(<SettingsForm title="Test" fields={FIELDS} saved={{}} state={stateOf(200)} save={async () => undefined} />, host());
    expect(control("Require topics").disabled).toBe(false);
    expect(control("Waiting period").disabled).toBe(true);
    expect(host().textContent).toContain("Only organization owners can change this");
  });
});

describe("exportStatus", () => {
  it("words an export's state", () => {
    const base = { pending: false, failed_timestamp: null, deleted_timestamp: null };
    expect(exportStatus({ ...base, pending: true })).toBe("In progress");
    expect(exportStatus(base)).toBe("Complete");
    expect(exportStatus({ ...base, failed_timestamp: 1 })).toBe("Failed");
    expect(exportStatus({ ...base, deleted_timestamp: 1 })).toBe("Deleted");
  });
});
