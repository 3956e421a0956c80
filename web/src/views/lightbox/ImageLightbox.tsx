import type { ComponentType } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import type { ChatState } from "../../model/store.js";
import type { Message } from "../../model/types.js";
import type { LightboxProps } from "./Lightbox.js";

let loaded: Promise<ComponentType<LightboxProps>> | null = null;

/**
 * Opens the lightbox (https://zulip.com/help/view-images-and-videos) when a
 * message's image preview is clicked: listens for clicks on
 * `.message_inline_image a` inside the feed's rows, keeps the browser from
 * following the link, and loads the lightbox's code the first time it opens.
 * Renders nothing until then.
 */
export function ImageLightbox(props: { state: ChatState; messages: readonly Message[] }) {
  const [open, setOpen] = useState<{ messageId: number; index: number } | null>(null);
  const [View, setView] = useState<ComponentType<LightboxProps> | null>(null);
  const opener = useRef<HTMLElement | null>(null);

  useEffect(() => {
    const onClick = (e: MouseEvent) => {
      if (e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
      const link = (e.target as Element | null)?.closest?.<HTMLAnchorElement>(".message_inline_image a");
      const row = link?.closest<HTMLElement>("article.message-row[data-message-id]");
      if (!link || !row) return;
      e.preventDefault();
      const index = [...row.querySelectorAll(".message_inline_image a")].indexOf(link);
      opener.current = link;
      setOpen({ messageId: Number(row.dataset.messageId), index: Math.max(0, index) });
      loaded ??= import("./Lightbox.js").then((m) => m.Lightbox);
      loaded.then(
        (C) => setView(() => C),
        () => {
          loaded = null;
          // Without the lightbox's code (offline), the image opens as a plain link would.
          window.open(link.href, "_blank", "noopener");
          setOpen(null);
        },
      );
    };
    document.addEventListener("click", onClick);
    return () => document.removeEventListener("click", onClick);
  }, []);

  if (!open || !View) return null;
  return (
    <View
      messages={props.messages}
      start={open}
      onClose={() => {
        setOpen(null);
        opener.current?.focus();
      }}
    />
  );
}
