import { useId } from "preact/hooks";
import type { InviteStream } from "../../model/invites.js";

/**
 * "Channels they should join" in the invitation dialog: "Default channels
 * for this organization" (`include_realm_default_subscriptions`, on at first)
 * and one checkbox per channel the inviter may add people to, the default
 * ones preselected (and fixed while the defaults are included). Without the
 * right to add people to channels (`realm_invite_to_stream_policy`) the list
 * is disabled with the reason; the defaults still apply.
 */
export function StreamChoices(props: {
  streams: readonly InviteStream[];
  chosen: ReadonlySet<number>;
  includeDefaults: boolean;
  refusal: string | null;
  onIncludeDefaults(on: boolean): void;
  onToggle(streamId: number, on: boolean): void;
}) {
  const id = useId();
  const hasDefaults = props.streams.some((s) => s.isDefault);
  return (
    <fieldset class="invite-streams" aria-describedby={props.refusal ? `${id}-why` : undefined}>
      <legend>Channels they should join</legend>
      <div class="form-check">
        <input id={`${id}-defaults`} type="checkbox" checked={props.includeDefaults} onChange={(e) => props.onIncludeDefaults((e.target as HTMLInputElement).checked)} />
        <label for={`${id}-defaults`}>Default channels for this organization</label>
      </div>
      {props.refusal && (
        <p class="field-hint" id={`${id}-why`}>
          {props.refusal}
        </p>
      )}
      {props.streams.length === 0 ? (
        <p class="field-hint">There are no channels to choose.</p>
      ) : (
        <ul class="invite-stream-list">
          {props.streams.map((s) => {
            const fixed = s.isDefault && props.includeDefaults;
            const checked = fixed || (!props.refusal && props.chosen.has(s.stream_id));
            return (
              <li key={s.stream_id} class="form-check">
                <input
                  id={`${id}-${s.stream_id}`}
                  type="checkbox"
                  checked={checked}
                  disabled={fixed || props.refusal !== null}
                  onChange={(e) => props.onToggle(s.stream_id, (e.target as HTMLInputElement).checked)}
                />
                <label for={`${id}-${s.stream_id}`}>
                  #{s.name}
                  {s.isDefault && hasDefaults ? <span class="field-hint"> (default)</span> : null}
                </label>
              </li>
            );
          })}
        </ul>
      )}
    </fieldset>
  );
}
