import { useLayoutEffect, useMemo, useRef } from "preact/hooks";
import { enhanceRenderedContent, prepareHtml, toggleSpoiler } from "./postprocess.js";

/** Props of {@link RenderedContent}. */
export interface RenderedContentProps {
  /** The server's rendered HTML (`content` of a message, `rendered` of `POST /messages/render`). */
  html: string;
  /** The reader's user ID: mentions of them are highlighted. */
  selfUserId?: number;
  /** Extra class names beside `rendered_markdown`. */
  class?: string;
}

let mathStyle: Promise<unknown> | null = null;
let highlighter: Promise<typeof import("./highlight.js")> | null = null;

/**
 * A message's HTML as the server rendered it (the server's renderer escapes what
 * people typed), post-processed in the DOM (see `postprocess.ts`); highlight.js
 * and KaTeX's stylesheet are fetched the first time a message needs them.
 */
export function RenderedContent(props: RenderedContentProps) {
  const root = useRef<HTMLDivElement>(null);
  const html = useMemo(() => prepareHtml(props.html), [props.html]);

  useLayoutEffect(() => {
    const el = root.current;
    if (!el) return;
    const found = enhanceRenderedContent(el, { selfUserId: props.selfUserId });
    if (found.hasMath) mathStyle ??= import("./math-style.js").catch(() => (mathStyle = null));
    if (found.hasCode) {
      highlighter ??= import("./highlight.js");
      highlighter.then(
        (m) => {
          if (el.isConnected) m.highlightCodeBlocks(el);
        },
        () => (highlighter = null),
      );
    }
  }, [html, props.selfUserId]);

  const onSpoiler = (e: Event) => {
    const target = e.target as Element | null;
    if (!target || target.closest("a")) return;
    const header = target.closest<HTMLElement>(".spoiler-header");
    if (!header || !root.current?.contains(header)) return;
    if (e.type === "keydown" && (e as KeyboardEvent).key !== "Enter" && (e as KeyboardEvent).key !== " ") return;
    e.preventDefault();
    toggleSpoiler(header);
  };

  return (
    <div
      ref={root}
      class={props.class ? `rendered_markdown ${props.class}` : "rendered_markdown"}
      onClick={onSpoiler}
      onKeyDown={onSpoiler}
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
