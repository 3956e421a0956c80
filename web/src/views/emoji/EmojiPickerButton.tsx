import type { ComponentChildren } from "preact";
import { useRef, useState } from "preact/hooks";
import type { EmojiEntry } from "../../model/emoji/catalog.js";
import type { RealmEmoji } from "../../model/realm-emoji.js";

type PickerModule = typeof import("./EmojiPicker.js");
let pickerModule: Promise<PickerModule> | undefined;

/** The picker's module, fetched with the first click (it and the emoji list are chunks of their own). */
function loadPicker(): Promise<PickerModule> {
  pickerModule ??= import("./EmojiPicker.js").catch((err: unknown) => {
    pickerModule = undefined;
    throw err;
  });
  return pickerModule;
}

/**
 * A button that opens the emoji picker (https://zulip.com/help/emoji-reactions):
 * "Add emoji reaction" on a message, "Add emoji" in the compose box. The
 * picker and the emoji list load on the first click, not with the page.
 * Picking calls `onPick` and closes the picker; focus returns to the button.
 */
export function EmojiPickerButton(props: {
  label: string;
  class?: string;
  title?: string;
  disabled?: boolean;
  realmEmoji: ReadonlyMap<string, RealmEmoji>;
  /** The reader, whose frequently used emoji the picker shows first. */
  userId: number;
  onPick(emoji: EmojiEntry): void;
  children: ComponentChildren;
}) {
  const button = useRef<HTMLButtonElement>(null);
  const [picker, setPicker] = useState<PickerModule | null>(null);
  const [open, setOpen] = useState(false);
  const close = () => setOpen(false);
  return (
    <>
      <button
        ref={button}
        type="button"
        class={props.class}
        aria-label={props.label}
        title={props.title ?? props.label}
        aria-haspopup="dialog"
        aria-expanded={open}
        disabled={props.disabled}
        // The open picker closes on a pointer down outside it; on this button the click toggles it instead.
        onPointerDown={(e) => open && e.stopPropagation()}
        onClick={(e) => {
          e.stopPropagation();
          if (open) return close();
          setOpen(true);
          void loadPicker().then(setPicker, () => setOpen(false));
        }}
      >
        {props.children}
      </button>
      {open && picker && button.current && (
        <picker.EmojiPicker
          anchor={button.current}
          realmEmoji={props.realmEmoji}
          userId={props.userId}
          onPick={(emoji) => {
            close();
            button.current?.focus();
            props.onPick(emoji);
          }}
          onClose={() => {
            close();
            button.current?.focus();
          }}
        />
      )}
    </>
  );
}
