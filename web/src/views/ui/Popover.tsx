import type { ComponentChildren, RefObject } from "preact";
import { useEffect } from "preact/hooks";

/**
 * Closes a popover (menu, picker, card) when the pointer goes down outside
 * `ref`'s element or Esc is pressed (Esc is kept from the page's shortcuts and
 * focus returns to `returnFocus`, usually the button that opened it).
 */
export function useDismiss(open: boolean, ref: RefObject<HTMLElement>, close: () => void, returnFocus?: RefObject<HTMLElement>): void {
  useEffect(() => {
    if (!open) return;
    const onPointer = (e: Event) => {
      if (!ref.current?.contains(e.target as Node)) close();
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      e.stopPropagation();
      close();
      returnFocus?.current?.focus();
    };
    document.addEventListener("pointerdown", onPointer);
    document.addEventListener("keydown", onKey, true);
    return () => {
      document.removeEventListener("pointerdown", onPointer);
      document.removeEventListener("keydown", onKey, true);
    };
  }, [open]);
}

/** One item of a {@link MenuList}: a button with its accessible name. */
export interface MenuItem {
  label: string;
  onSelect(): void;
  disabled?: boolean;
  /** Drawn in the danger color (delete, deactivate). */
  danger?: boolean;
}

/**
 * A list of actions (role "menu"; ↑/↓ move between items, Home/End to the
 * ends); selecting one runs it and calls `onDone`.
 */
export function MenuList(props: { label: string; items: MenuItem[]; onDone(): void; children?: ComponentChildren }) {
  const onKeyDown = (e: KeyboardEvent) => {
    const items = [...(e.currentTarget as HTMLElement).querySelectorAll<HTMLButtonElement>("button:not([disabled])")];
    const at = items.indexOf(document.activeElement as HTMLButtonElement);
    const to = e.key === "ArrowDown" ? at + 1 : e.key === "ArrowUp" ? at - 1 : e.key === "Home" ? 0 : e.key === "End" ? items.length - 1 : null;
    if (to === null || items.length === 0) return;
    e.preventDefault();
    items[(to + items.length) % items.length]?.focus();
  };
  return (
    <ul class="menu-list" role="menu" aria-label={props.label} onKeyDown={onKeyDown}>
      {props.items.map((item) => (
        <li key={item.label} role="none">
          <button
            type="button"
            role="menuitem"
            class={item.danger ? "menu-item danger" : "menu-item"}
            disabled={item.disabled}
            onClick={(e) => {
              e.stopPropagation();
              item.onSelect();
              props.onDone();
            }}
          >
            {item.label}
          </button>
        </li>
      ))}
      {props.children}
    </ul>
  );
}
