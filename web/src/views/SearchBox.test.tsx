// @vitest-environment happy-dom
import { render } from "preact";
import { act } from "preact/test-utils";
import { describe, expect, it, vi } from "vitest";
import { useRenderHost } from "./test-host.js";
import { applySuggestion, focusSearch, operatorSuggestions, SearchBox } from "./SearchBox.js";

describe("operatorSuggestions", () => {
  it("suggests the operators the last word starts", () => {
    expect(operatorSuggestions("lunch to")).toEqual(["topic:"]);
    expect(operatorSuggestions("s")).toEqual(["sender:"]);
    expect(operatorSuggestions("-h")).toEqual(["has:"]);
    expect(operatorSuggestions("channel:general ")).toEqual([]);
    expect(operatorSuggestions("topic:")).toEqual([]);
    expect(operatorSuggestions("")).toEqual([]);
  });

  it("replaces the last word, keeping a negation", () => {
    expect(applySuggestion("lunch to", "topic:")).toBe("lunch topic:");
    expect(applySuggestion("-h", "has:")).toBe("-has:");
  });
});

describe("SearchBox", () => {
  const host = useRenderHost();

  const input = () => host().querySelector<HTMLInputElement>("input")!;
  const keydown = (key: string) =>
    act(() => {
      input().dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true }));
    });

  it("is labelled Search, focused by focusSearch, submits on Enter and clears on Esc", () => {
    const onSearch = vi.fn();
    const onClear = vi.fn();
    act(() => render(<SearchBox value="" onSearch={onSearch} onClear={onClear} />, host()));
    const label = host().querySelector("label")!;
    expect(label.textContent).toBe("Search");
    expect(label.htmlFor).toBe(input().id);
    focusSearch();
    expect(document.activeElement).toBe(input());
    act(() => {
      input().value = "topic:lunch ";
      input().dispatchEvent(new Event("input", { bubbles: true }));
    });
    act(() => {
      host().querySelector("form")!.dispatchEvent(new Event("submit", { bubbles: true, cancelable: true }));
    });
    expect(onSearch).toHaveBeenCalledWith("topic:lunch");
    keydown("Escape");
    expect(input().value).toBe("");
    expect(onClear).not.toHaveBeenCalled();
    keydown("Escape");
    expect(onClear).toHaveBeenCalledOnce();
  });
});
