// @vitest-environment happy-dom
import { render } from "preact";
import { act } from "preact/test-utils";
import { describe, expect, it, vi } from "vitest";
import { ApiError } from "../../api/client.js";
import { useRenderHost } from "../test-host.js";
import { MessageEditForm } from "./MessageEditForm.js";

describe("MessageEditForm", () => {
  const host = useRenderHost();
  const flush = () => act(async () => await new Promise((r) => setTimeout(r, 0)));
  const textarea = () => host().querySelector("textarea")!;
  const key = (init: KeyboardEventInit) => act(() => void textarea().dispatchEvent(new KeyboardEvent("keydown", { bubbles: true, cancelable: true, ...init })));
  const type = (text: string) =>
    act(() => {
      textarea().value = text;
      textarea().dispatchEvent(new Event("input", { bubbles: true }));
    });

  async function mount(save: (content: string) => Promise<void>) {
    const close = vi.fn();
    act(() => render(<MessageEditForm loadSource={() => Promise.resolve("old **text**")} save={save} close={close} />, host()));
    await flush();
    await flush();
    return close;
  }

  it("starts with the message's Markdown and saves with Ctrl+Enter", async () => {
    const save = vi.fn(() => Promise.resolve());
    const close = await mount(save);
    expect(textarea().value).toBe("old **text**");
    expect(host().querySelector("label")!.textContent).toBe("Edit message content");
    await type("new text");
    await key({ key: "Enter", ctrlKey: true });
    await flush();
    expect(save).toHaveBeenCalledWith("new text");
    expect(close).toHaveBeenCalled();
  });

  it("cancels with Esc, without letting the key reach the page's shortcuts", async () => {
    const save = vi.fn(() => Promise.resolve());
    const close = await mount(save);
    const onPage = vi.fn();
    window.addEventListener("keydown", onPage);
    await key({ key: "Escape" });
    window.removeEventListener("keydown", onPage);
    expect(close).toHaveBeenCalled();
    expect(onPage).not.toHaveBeenCalled();
    expect(save).not.toHaveBeenCalled();
  });

  it("shows the server's refusal and stays open", async () => {
    const close = await mount(() => Promise.reject(new ApiError(400, "BAD_REQUEST", "The time limit for editing this message has passed")));
    await type("too late");
    await act(() => void host().querySelector("form")!.dispatchEvent(new Event("submit", { bubbles: true, cancelable: true })));
    await flush();
    expect(host().querySelector('[role="alert"]')!.textContent).toBe("The time limit for editing this message has passed");
    expect(close).not.toHaveBeenCalled();
  });

  it("closes without a request when nothing changed", async () => {
    const save = vi.fn(() => Promise.resolve());
    const close = await mount(save);
    await key({ key: "Enter", metaKey: true });
    expect(save).not.toHaveBeenCalled();
    expect(close).toHaveBeenCalled();
  });
});
