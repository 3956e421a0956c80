// @vitest-environment happy-dom
import { render } from "preact";
import { act } from "preact/test-utils";
import { describe, expect, it, vi } from "vitest";
import { useRenderHost } from "../test-host.js";
import type { ApiClient } from "../../api/client.js";
import { Compose } from "./Compose.js";
import type { ComposeTypeaheadData } from "./ComposeTypeahead.js";

const host = useRenderHost();

const people = [
  { user_id: 5, full_name: "Iago", email: "iago@zulip.com" },
  { user_id: 6, full_name: "Cordelia Lear", email: "cordelia@zulip.com" },
];
const streams = [
  { stream_id: 3, name: "general" },
  { stream_id: 4, name: "design" },
];

function mount(data: Partial<ComposeTypeaheadData> = {}) {
  const api: ApiClient = { call: async <T,>() => ({}) as T };
  const loadTopics = vi.fn();
  const typeahead: ComposeTypeaheadData = {
    recentSenders: [],
    groups: [{ id: 9, name: "support", description: "Support team", is_system_group: false }],
    topics: (id) => (id === 3 ? ["lunch plans", "launch"] : undefined),
    loadTopics,
    realmEmoji: new Map(),
    userId: 5,
    ...data,
  };
  act(() =>
    render(
      <Compose api={api} people={people} streams={streams} target={{ type: "stream", stream_id: 3, topic: "" }} enterSends onSend={async () => undefined} typeahead={typeahead} />,
      host(),
    ),
  );
  return { loadTopics };
}

const textarea = () => host().querySelector<HTMLTextAreaElement>("textarea")!;
const options = (label: string) => [...host().querySelectorAll(`[role="listbox"][aria-label="${label}"] [role="option"]`)].map((o) => o.textContent);

async function typeAtEnd(el: HTMLTextAreaElement | HTMLInputElement, value: string) {
  await act(async () => {
    el.focus();
    el.value = value;
    el.setSelectionRange(value.length, value.length);
    el.dispatchEvent(new Event("input", { bubbles: true }));
  });
}
async function key(el: HTMLElement, init: KeyboardEventInit) {
  await act(async () => {
    el.dispatchEvent(new KeyboardEvent("keydown", { bubbles: true, cancelable: true, ...init }));
  });
}

describe("the message field's typeahead", () => {
  it("lists people for @, points the field at the active option, and Enter inserts the mention", async () => {
    // Prepare
    mount();

    // Act
    await typeAtEnd(textarea(), "hi @cor");

    // Assess
    expect(options("Suggestions")).toEqual(["Cordelia Lear cordelia@zulip.com"]);
    expect(textarea().getAttribute("aria-activedescendant")).toBe(host().querySelector('[role="option"]')!.id);
    await key(textarea(), { key: "Enter" });
    expect(textarea().value).toBe("hi @**Cordelia Lear** ");
    expect(options("Suggestions")).toEqual([]);
  });

  it("moves with the arrows, closes with Esc without closing the box", async () => {
    mount();
    await typeAtEnd(textarea(), "#");
    expect(options("Suggestions")).toEqual(["design", "general"]);

    await key(textarea(), { key: "ArrowDown" });
    expect(host().querySelector('[aria-selected="true"]')?.textContent).toBe("general");
    await key(textarea(), { key: "Escape" });
    expect(options("Suggestions")).toEqual([]);

    await typeAtEnd(textarea(), "#gen");
    await key(textarea(), { key: "Tab" });
    expect(textarea().value).toBe("#**general** ");
  });

  it("asks for a stream's topics after #stream>", async () => {
    const { loadTopics } = mount();
    await typeAtEnd(textarea(), "#**design>");
    expect(loadTopics).toHaveBeenCalledWith(4);

    await typeAtEnd(textarea(), "#general>lun");
    expect(options("Suggestions")).toEqual(["lunch plans general"]);
  });

  it("formats the selection with Ctrl+B", async () => {
    mount();
    await typeAtEnd(textarea(), "make it bold");
    textarea().setSelectionRange(8, 12);
    await key(textarea(), { key: "b", ctrlKey: true });
    expect(textarea().value).toBe("make it **bold**");
  });
});

describe("the topic field's typeahead", () => {
  it("offers the stream's topics matching what is typed", async () => {
    mount();
    const topic = host().querySelector<HTMLInputElement>('input[aria-controls$="-topic-list"]')!;

    await typeAtEnd(topic, "la");
    // Prefix matches first, then names containing it ("lunch plans").
    expect(options("Topics")).toEqual(["launch", "lunch plans"]);
    await key(topic, { key: "Enter" });
    expect(topic.value).toBe("launch");
  });
});
