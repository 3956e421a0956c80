// @vitest-environment happy-dom
import { render } from "preact";
import { act } from "preact/test-utils";
import { describe, expect, it, vi } from "vitest";
import { useRenderHost } from "../test-host.js";
import { RenderedContent } from "./RenderedContent.js";

describe("RenderedContent", () => {
  const host = useRenderHost();

  it("post-processes the server's HTML as it is shown and again when it changes", () => {
    const html = '<p><span class="user-mention" data-user-id="5">@Iago</span> <span class="emoji emoji-1f44d" aria-label="+1">:+1:</span></p>';
    act(() => render(<RenderedContent html={html} selfUserId={5} />, host()));
    expect(host().querySelector(".user-mention")!.classList.contains("mention-me")).toBe(true);
    expect(host().querySelector(".emoji")!.textContent).toBe("👍");
    act(() => render(<RenderedContent html="<p><a href='https://example.com'>x</a></p>" selfUserId={5} />, host()));
    expect(host().querySelector("a")!.rel).toBe("noopener noreferrer");
  });

  it("loads highlight.js for a code block and highlights it", async () => {
    const html = '<div class="codehilite" data-code-language="JavaScript"><pre><span></span><code>const x = 1;</code></pre></div>';
    act(() => render(<RenderedContent html={html} />, host()));
    await vi.waitFor(() => expect(host().querySelector(".hljs-keyword")?.textContent).toBe("const"));
  });

  it("toggles a spoiler from its header, by click and by keyboard", () => {
    const html =
      '<div class="spoiler-block"><div class="spoiler-header"><p>Plot</p></div><div class="spoiler-content" aria-hidden="true"><p>twist</p></div></div>';
    act(() => render(<RenderedContent html={html} />, host()));
    const header = host().querySelector<HTMLElement>(".spoiler-header")!;
    act(() => header.querySelector("p")!.click());
    expect(header.getAttribute("aria-expanded")).toBe("true");
    act(() => {
      header.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true, cancelable: true }));
    });
    expect(header.getAttribute("aria-expanded")).toBe("false");
  });
});
