// @vitest-environment happy-dom
import { render } from "preact";
import { act } from "preact/test-utils";
import { describe, expect, it, vi } from "vitest";
import { useRenderHost } from "../test-host.js";
import { EmojiPickerButton } from "./EmojiPickerButton.js";

const host = useRenderHost();

const realmEmoji = new Map([
  ["3", { id: "3", name: "party_parrot", source_url: "/user_avatars/2/emoji/images/3.gif", still_url: null, deactivated: false, author_id: 1 }],
]);

function mount() {
  const onPick = vi.fn();
  act(() =>
    render(
      <EmojiPickerButton label="Add emoji reaction" realmEmoji={realmEmoji} userId={1} onPick={onPick}>
        ☺
      </EmojiPickerButton>,
      host(),
    ),
  );
  return { onPick };
}

async function openPicker() {
  await act(async () => host().querySelector("button")!.click());
  await vi.waitFor(() => expect(document.querySelector('[role="dialog"] button[aria-label="tada"]')).not.toBeNull(), { timeout: 10_000 });
  return document.querySelector<HTMLElement>('[role="dialog"][aria-label="Emoji picker"]')!;
}

describe("EmojiPicker", () => {
  it("loads on the first click and lists frequently used, custom and category emoji", async () => {
    // Prepare
    localStorage.clear();
    mount();

    // Act
    const picker = await openPicker();

    // Assess
    const titles = [...picker.querySelectorAll("h3")].map((h) => h.textContent);
    expect(titles.slice(0, 3)).toEqual(["Frequently used", "Custom", "Smileys & Emotion"]);
    const frequent = [...picker.querySelectorAll("section")][0]!;
    expect([...frequent.querySelectorAll("button")].map((b) => b.getAttribute("aria-label"))).toEqual(["+1", "tada", "smile", "heart", "working_on_it", "octopus"]);
    expect(picker.querySelector('button[aria-label="party_parrot"] img')?.getAttribute("src")).toBe("/user_avatars/2/emoji/images/3.gif");
    expect(document.activeElement?.getAttribute("aria-label")).toBe("Search emoji");
  });

  it("searches, picks the first result with Enter, and remembers it as frequently used", async () => {
    localStorage.clear();
    const { onPick } = mount();
    const picker = await openPicker();
    const search = picker.querySelector<HTMLInputElement>('input[aria-label="Search emoji"]')!;

    await act(async () => {
      search.value = "rocket";
      search.dispatchEvent(new Event("input", { bubbles: true }));
    });
    expect(picker.querySelector("section button")?.getAttribute("aria-label")).toBe("rocket");
    await act(async () => {
      search.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true, cancelable: true }));
    });

    expect(onPick).toHaveBeenCalledWith(expect.objectContaining({ name: "rocket", code: "1f680", reaction_type: "unicode_emoji" }));
    expect(document.querySelector('[aria-label="Emoji picker"]')).toBeNull();
    expect(JSON.parse(localStorage.getItem("zulip-frequent-emoji:1")!)[0].emoji.name).toBe("rocket");
  });

  it("closes with Esc and gives the focus back to its button", async () => {
    mount();
    await openPicker();

    await act(async () => {
      document.activeElement!.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true, cancelable: true }));
    });

    expect(document.querySelector('[aria-label="Emoji picker"]')).toBeNull();
    expect(document.activeElement).toBe(host().querySelector("button"));
  });
});
