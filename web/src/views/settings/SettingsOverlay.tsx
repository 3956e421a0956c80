import { useEffect, useRef, useState } from "preact/hooks";
import type { Chat } from "../../model/chat.js";
import type { ChatState } from "../../model/store.js";
import { overlayHash, type Overlay, type OverlayArea } from "../../model/overlay.js";
import type { SettingsSection } from "./types.js";
import "../../styles/settings.css";

/** The overlay's title per area, also its landmark's accessible name. */
export const AREA_TITLES: Record<OverlayArea, string> = {
  settings: "Personal settings",
  organization: "Organization settings",
  channels: "Channel settings",
};

/** Each area's sections, loaded on demand so organization administration never loads for a person who opens their profile. */
async function loadSections(area: OverlayArea): Promise<{ list: SettingsSection[]; fallback: SettingsSection | null }> {
  if (area === "settings") return { list: (await import("./personal/sections.js")).PERSONAL_SECTIONS, fallback: null };
  if (area === "organization") return { list: (await import("./organization/sections.js")).ORGANIZATION_SECTIONS, fallback: null };
  const mod = await import("./channels/sections.js");
  return { list: mod.CHANNEL_SECTIONS, fallback: mod.CHANNEL_SECTION };
}

/**
 * A settings overlay above the chat (`section.settings-overlay`, named by its
 * title): the area's sections as links (`#settings/profile`, …; the open one
 * marked `aria-current`), the open section, and "Close" (also Esc), which
 * calls `onClose` to go back to the chat view underneath.
 */
export function SettingsOverlay(props: { chat: Chat; state: ChatState; overlay: Overlay; onClose(): void }) {
  const { overlay, state } = props;
  const [sections, setSections] = useState<{ area: OverlayArea; list: SettingsSection[]; fallback: SettingsSection | null } | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const ref = useRef<HTMLElement>(null);

  useEffect(() => {
    let live = true;
    loadSections(overlay.area).then(
      (s) => live && setSections({ area: overlay.area, ...s }),
      () => live && setFailed("This page could not be loaded. Check your connection and reload."),
    );
    return () => {
      live = false;
    };
  }, [overlay.area]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // A dialog open inside a section closes first (the browser closes it on Esc).
      if (e.key !== "Escape" || document.querySelector("dialog[open]")) return;
      const t = e.target as HTMLElement | null;
      if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT") && t.closest(".settings-overlay")) {
        (t as HTMLElement).blur();
        return;
      }
      e.stopPropagation();
      props.onClose();
    };
    document.addEventListener("keydown", onKey, true);
    return () => document.removeEventListener("keydown", onKey, true);
  }, [props.onClose]);

  useEffect(() => {
    ref.current?.querySelector<HTMLElement>(".settings-content h2, .settings-content [autofocus]")?.focus();
  }, [overlay.area, overlay.section, sections]);

  const title = AREA_TITLES[overlay.area];
  const visible = sections && sections.area === overlay.area ? sections.list.filter((s) => !s.visible || s.visible(state)) : [];
  const open =
    sections && sections.area === overlay.area
      ? (visible.find((s) => s.id === overlay.section) ?? (sections.list.some((s) => s.id === overlay.section) ? null : sections.fallback))
      : null;
  const Section = open?.component;

  return (
    <section class="settings-overlay" aria-label={title} ref={ref}>
      <header class="settings-header">
        <h1>{title}</h1>
        <button type="button" class="settings-close" onClick={props.onClose}>
          Close
        </button>
      </header>
      <div class="settings-body">
        <nav class="settings-nav" aria-label={`${title} sections`}>
          <ul>
            {visible.map((s) => (
              <li key={s.id}>
                <a href={overlayHash(overlay.area, s.id)} aria-current={open?.id === s.id ? "page" : undefined}>
                  {s.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div class="settings-content">
          {failed ? (
            <p class="error-note" role="alert">
              {failed}
            </p>
          ) : !sections ? (
            <p aria-busy="true">Loading…</p>
          ) : Section ? (
            <Section chat={props.chat} state={state} rest={overlay.rest} />
          ) : (
            <p>{visible.length > 0 ? "Choose a section." : "There is nothing to set here."}</p>
          )}
        </div>
      </div>
    </section>
  );
}
