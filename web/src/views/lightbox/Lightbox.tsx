import { format } from "date-fns";
import { useEffect, useMemo, useState } from "preact/hooks";
import { imagesOfMessages } from "../../model/images.js";
import type { Message } from "../../model/types.js";
import { Dialog } from "../ui/Dialog.js";
import "../../styles/lightbox.css";

/** Props of {@link Lightbox}. */
export interface LightboxProps {
  /** The loaded messages of the view, oldest first: ←/→ go through their images. */
  messages: readonly Message[];
  /** The image clicked: its message and its position among that message's previews. */
  start: { messageId: number; index: number };
  onClose(): void;
}

/**
 * The lightbox (https://zulip.com/help/view-images-and-videos): a modal
 * dialog named by the image's name, showing the image at full size, who
 * shared it and when, a "Download" link, and "Previous image"/"Next image"
 * (also ← and →) through the images of the view's loaded messages. Esc, the
 * close button or a click beside the image closes it.
 */
export function Lightbox(props: LightboxProps) {
  const images = useMemo(() => imagesOfMessages(props.messages), [props.messages]);
  const [at, setAt] = useState(() =>
    Math.max(0, images.findIndex((i) => i.messageId === props.start.messageId && i.indexInMessage === props.start.index)),
  );
  const image = images[Math.min(at, images.length - 1)];
  const go = (step: number) => setAt((n) => Math.max(0, Math.min(images.length - 1, n + step)));
  useEffect(() => {
    // Captured at the document, wherever focus is in the dialog; the feed's shortcuts (arrows select
    // messages, Esc closes compose) stay out while it is open. Esc itself closes the dialog (the browser's).
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
        e.preventDefault();
        go(e.key === "ArrowLeft" ? -1 : 1);
      }
      if (e.key.startsWith("Arrow") || e.key === "Escape") e.stopPropagation();
    };
    document.addEventListener("keydown", onKey, true);
    return () => document.removeEventListener("keydown", onKey, true);
  }, [images.length]);
  if (!image) return null;
  const when = new Date(image.timestamp * 1000);
  return (
    <Dialog title={image.name} onClose={props.onClose} class="lightbox">
      <div class="lightbox-body">
        <div class="lightbox-stage">
          <button type="button" class="lightbox-nav" aria-label="Previous image" disabled={at === 0} onClick={() => go(-1)}>
            ‹
          </button>
          <img class="lightbox-image" src={image.src} alt={image.name} />
          <button type="button" class="lightbox-nav" aria-label="Next image" disabled={at >= images.length - 1} onClick={() => go(1)}>
            ›
          </button>
        </div>
        <footer class="lightbox-footer">
          <p class="lightbox-meta">
            Shared by <strong>{image.senderName}</strong> on <time dateTime={when.toISOString()}>{format(when, "PPp")}</time>
            <span class="lightbox-count">
              {" "}
              · {at + 1} of {images.length}
            </span>
          </p>
          <a class="lightbox-download" href={image.downloadUrl} download={image.name}>
            Download
          </a>
        </footer>
      </div>
    </Dialog>
  );
}
