// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { installShortcuts, isTypingTarget, shouldRunShortcut, type ShortcutHandlers } from "./shortcuts.js";

describe("isTypingTarget", () => {
  it("is true for text fields and contenteditable, false elsewhere", () => {
    expect(isTypingTarget({ tagName: "TEXTAREA" })).toBe(true);
    expect(isTypingTarget({ tagName: "INPUT", type: "search" })).toBe(true);
    expect(isTypingTarget({ tagName: "INPUT" })).toBe(true);
    expect(isTypingTarget({ tagName: "SELECT" })).toBe(true);
    expect(isTypingTarget({ tagName: "DIV", isContentEditable: true })).toBe(true);
    expect(isTypingTarget({ tagName: "INPUT", type: "checkbox" })).toBe(false);
    expect(isTypingTarget({ tagName: "DIV" })).toBe(false);
    expect(isTypingTarget(null)).toBe(false);
  });
});

describe("shouldRunShortcut", () => {
  const at = (target: object, defaultPrevented = false) => ({ target: target as EventTarget, defaultPrevented });

  it("ignores letters typed in a field but always runs Esc", () => {
    expect(shouldRunShortcut("c", at({ tagName: "TEXTAREA" }))).toBe(false);
    expect(shouldRunShortcut("/", at({ tagName: "INPUT", type: "text" }))).toBe(false);
    expect(shouldRunShortcut("Escape", at({ tagName: "TEXTAREA" }))).toBe(true);
    expect(shouldRunShortcut("c", at({ tagName: "BODY" }))).toBe(true);
  });

  it("leaves Enter to links and buttons", () => {
    expect(shouldRunShortcut("Enter", at({ tagName: "A" }))).toBe(false);
    expect(shouldRunShortcut("Enter", at({ tagName: "DIV", closest: () => ({}) }))).toBe(false);
    expect(shouldRunShortcut("Enter", at({ tagName: "DIV", closest: () => null }))).toBe(true);
    expect(shouldRunShortcut("r", at({ tagName: "BUTTON" }))).toBe(true);
  });

  it("does nothing for a key the page already handled", () => {
    expect(shouldRunShortcut("Escape", at({ tagName: "BODY" }, true))).toBe(false);
  });
});

describe("installShortcuts", () => {
  let calls: string[];
  let remove: () => void;
  const handlers = new Proxy({} as ShortcutHandlers, {
    get: (_t, name: string) => () => calls.push(name),
  });

  beforeEach(() => {
    calls = [];
    document.body.innerHTML = '<textarea></textarea><div id="feed" tabindex="0"></div>';
    remove = installShortcuts(window, handlers);
  });
  afterEach(() => remove());

  function press(target: Element, key: string, init: KeyboardEventInit = {}): KeyboardEvent {
    const e = new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true, ...init });
    target.dispatchEvent(e);
    return e;
  }

  it("runs each shortcut from the page and prevents the key's default", () => {
    const feed = document.getElementById("feed")!;
    for (const key of ["c", "x", "r", "Enter", "n", "/", "Escape", "j", "k"]) press(feed, key);
    expect(calls).toEqual(["composeStream", "composeDirect", "reply", "reply", "nextUnreadTopic", "search", "escape", "next", "previous"]);
    expect(press(feed, "/").defaultPrevented).toBe(true);
  });

  it("edits with e and stars with * (typed with or without Shift)", () => {
    const feed = document.getElementById("feed")!;
    press(feed, "e");
    press(feed, "*", { shiftKey: true });
    press(feed, "*");
    expect(calls).toEqual(["edit", "star", "star"]);
  });

  it("lets letters through to a text field, but not Esc", () => {
    const textarea = document.querySelector("textarea")!;
    const e = press(textarea, "c");
    press(textarea, "j");
    press(textarea, "Escape");
    expect(calls).toEqual(["escape"]);
    expect(e.defaultPrevented).toBe(false);
  });

  it("ignores a letter with a modifier (Ctrl+C copies)", () => {
    press(document.getElementById("feed")!, "c", { ctrlKey: true });
    expect(calls).toEqual([]);
  });

  it("stops when removed", () => {
    remove();
    press(document.getElementById("feed")!, "c");
    expect(calls).toEqual([]);
  });
});
