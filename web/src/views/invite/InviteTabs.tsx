import { useId } from "preact/hooks";

/** The dialog's two modes. */
export type InviteMode = "email" | "link";

const MODES: readonly { mode: InviteMode; label: string }[] = [
  { mode: "email", label: "Invite by email" },
  { mode: "link", label: "Invitation link" },
];

/**
 * The mode switch of the invitation dialog: a tab list ("Invite by email",
 * "Invitation link"); the selected tab is the one in the tab order and
 * ←/→ move between them, as the ARIA tabs pattern has it.
 */
export function InviteTabs(props: { mode: InviteMode; onChange(mode: InviteMode): void }) {
  const id = useId();
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== "ArrowLeft" && e.key !== "ArrowRight") return;
    e.preventDefault();
    const at = MODES.findIndex((m) => m.mode === props.mode);
    const next = MODES[(at + (e.key === "ArrowRight" ? 1 : MODES.length - 1)) % MODES.length]!;
    props.onChange(next.mode);
    (e.currentTarget as HTMLElement).querySelector<HTMLElement>(`#${CSS.escape(`${id}-${next.mode}`)}`)?.focus();
  };
  return (
    <div class="invite-tabs" role="tablist" aria-label="How to invite" onKeyDown={onKeyDown}>
      {MODES.map((m) => (
        <button
          key={m.mode}
          id={`${id}-${m.mode}`}
          type="button"
          role="tab"
          aria-selected={props.mode === m.mode}
          tabIndex={props.mode === m.mode ? 0 : -1}
          onClick={() => props.onChange(m.mode)}
        >
          {m.label}
        </button>
      ))}
    </div>
  );
}
