// @vitest-environment happy-dom
import { render } from "preact";
import { act } from "preact/test-utils";
import { describe, expect, it, vi } from "vitest";
import { useRenderHost } from "../test-host.js";
import { ApiError, type ApiClient } from "../../api/client.js";
import { Compose, focusCompose, type ComposeProps } from "./Compose.js";
import type { ComposeTarget } from "./types.js";

const host = useRenderHost();

const people = [
  { user_id: 5, full_name: "Iago", email: "iago@zulip.com" },
  { user_id: 6, full_name: "Cordelia Lear", email: "cordelia@zulip.com" },
];
const streams = [{ stream_id: 3, name: "general" }];

function mount(overrides: Partial<ComposeProps> = {}) {
  const calls: [string, string, unknown][] = [];
  const api: ApiClient = {
    call: async <T,>(method: string, path: string, params?: unknown) => {
      calls.push([method, path, params]);
      return (path === "/messages/render" ? { rendered: "<p><strong>hi</strong></p>" } : {}) as T;
    },
  };
  const sent: [ComposeTarget, string][] = [];
  const props: ComposeProps = {
    api,
    people,
    streams,
    target: { type: "stream", stream_id: 3, topic: "lunch" },
    enterSends: true,
    onSend: async (target, content) => {
      sent.push([target, content]);
    },
    ...overrides,
  };
  act(() => render(<Compose {...props} />, host()));
  return { calls, sent, props };
}

const byLabel = <T extends HTMLElement>(text: string): T => {
  const label = [...host().querySelectorAll("label")].find((l) => l.textContent === text);
  if (!label) throw new Error(`no label ${text}`);
  return host().querySelector<T>(`#${CSS.escape(label.htmlFor)}`)!;
};
const button = (name: string) => [...host().querySelectorAll("button")].find((b) => b.textContent?.trim() === name)!;
const alertText = () => host().querySelector('[role="alert"]')?.textContent ?? null;

function type(el: HTMLInputElement | HTMLTextAreaElement, value: string) {
  act(() => {
    el.value = value;
    el.dispatchEvent(new Event("input", { bubbles: true }));
  });
}
async function key(el: HTMLElement, init: KeyboardEventInit) {
  await act(async () => {
    el.dispatchEvent(new KeyboardEvent("keydown", { bubbles: true, cancelable: true, ...init }));
  });
}

describe("Compose", () => {
  it("sends to the target's stream and topic on Enter and empties the box", async () => {
    const { sent } = mount();
    expect(byLabel<HTMLSelectElement>("Stream").value).toBe("3");
    expect(byLabel<HTMLInputElement>("Topic").value).toBe("lunch");
    const message = byLabel<HTMLTextAreaElement>("Message");
    type(message, "hello");
    await key(message, { key: "Enter" });
    expect(sent).toEqual([[{ type: "stream", stream_id: 3, topic: "lunch" }, "hello"]]);
    expect(message.value).toBe("");
  });

  it("makes a newline on Enter when Enter does not send, and sends on Ctrl+Enter", async () => {
    const { sent } = mount({ enterSends: false });
    const message = byLabel<HTMLTextAreaElement>("Message");
    type(message, "hello");
    await key(message, { key: "Enter" });
    expect(sent).toEqual([]);
    await key(message, { key: "Enter", ctrlKey: true });
    expect(sent).toHaveLength(1);
  });

  it("refuses an empty message with Zulip's words", async () => {
    const { sent } = mount();
    type(byLabel<HTMLTextAreaElement>("Message"), "   ");
    await act(async () => button("Send").click());
    expect(sent).toEqual([]);
    expect(alertText()).toBe("You have nothing to send!");
  });

  it("shows the server's refusal and keeps the draft", async () => {
    mount({
      onSend: () => Promise.reject(new ApiError(400, "BAD_REQUEST", "Not allowed to post in this stream")),
    });
    const message = byLabel<HTMLTextAreaElement>("Message");
    type(message, "draft text");
    await act(async () => button("Send").click());
    expect(alertText()).toBe("Not allowed to post in this stream");
    expect(message.value).toBe("draft text");
  });

  it("previews through POST /messages/render", async () => {
    const { calls } = mount();
    type(byLabel<HTMLTextAreaElement>("Message"), "**hi**");
    await act(async () => button("Preview").click());
    expect(calls).toContainEqual(["POST", "/messages/render", { content: "**hi**" }]);
    expect(host().querySelector('[aria-label="Preview"] strong')?.textContent).toBe("hi");
    expect(button("Preview").getAttribute("aria-pressed")).toBe("true");
  });

  it("sends typing start while typing and stop on send", async () => {
    const { calls } = mount({ typingClock: { now: () => 0, setTimeout: () => 1, clearTimeout: () => undefined } });
    const message = byLabel<HTMLTextAreaElement>("Message");
    type(message, "h");
    type(message, "hi");
    await key(message, { key: "Enter" });
    expect(calls.filter(([, path]) => path === "/typing").map(([, , p]) => p)).toEqual([
      { op: "start", type: "stream", stream_id: 3, topic: "lunch" },
      { op: "stop", type: "stream", stream_id: 3, topic: "lunch" },
    ]);
  });

  it("finds direct-message recipients by name and chooses one with the keyboard", async () => {
    const { sent } = mount({ target: null, kind: "private" });
    const to = byLabel<HTMLInputElement>("To");
    expect(to.getAttribute("role")).toBe("combobox");
    type(to, "lear");
    expect([...host().querySelectorAll('[role="option"]')].map((o) => o.textContent)).toEqual(["Cordelia Lear cordelia@zulip.com"]);
    await key(to, { key: "Enter" });
    expect(host().querySelector(".pill")?.textContent).toContain("Cordelia Lear");
    expect(host().querySelector('button[aria-label="Remove Cordelia Lear"]')).not.toBeNull();
    type(byLabel<HTMLTextAreaElement>("Message"), "hi");
    await act(async () => button("Send").click());
    expect(sent).toEqual([[{ type: "private", user_ids: [6] }, "hi"]]);
  });

  it("asks for recipients before sending a direct message", async () => {
    mount({ target: null, kind: "private" });
    type(byLabel<HTMLTextAreaElement>("Message"), "hi");
    await act(async () => button("Send").click());
    expect(alertText()).toBe("Please specify at least one valid recipient.");
  });

  it("focuses the first empty field when opened, and closes on Esc", async () => {
    const onClose = vi.fn();
    const base: Partial<ComposeProps> = { target: null, onClose, open: false, onOpen: () => undefined };
    const { props } = mount(base);
    expect(host().querySelector("textarea")).toBeNull();
    act(() => render(<Compose {...props} open />, host()));
    expect(document.activeElement).toBe(byLabel("Stream"));
    byLabel<HTMLTextAreaElement>("Message").blur();
    focusCompose();
    expect(document.activeElement).toBe(byLabel("Stream"));
    await key(byLabel("Topic"), { key: "Escape" });
    expect(onClose).toHaveBeenCalledOnce();
  });

  it("keeps the draft when the target changes, and each focus request focuses the first empty field", async () => {
    const { props } = mount();
    const message = byLabel<HTMLTextAreaElement>("Message");
    type(message, "my draft");
    act(() => render(<Compose {...props} target={{ type: "stream", stream_id: 3, topic: "" }} focusRequest={1} />, host()));
    await act(async () => undefined);
    expect(byLabel<HTMLInputElement>("Topic").value).toBe("");
    expect(byLabel<HTMLTextAreaElement>("Message").value).toBe("my draft");
    expect(document.activeElement).toBe(byLabel("Topic"));

    act(() => render(<Compose {...props} target={{ type: "private", user_ids: [5] }} focusRequest={2} />, host()));
    await act(async () => undefined);
    expect(host().querySelector(".pill")?.textContent).toContain("Iago");
    expect(byLabel<HTMLTextAreaElement>("Message").value).toBe("my draft");
    expect(document.activeElement).toBe(byLabel("Message"));
  });
});
