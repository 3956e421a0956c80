import { useChatUi } from "./context.js";

/** A "⋮" button beside a person in the people list that opens their user card (the name itself opens the DM, as in Zulip). */
export function PersonCardButton(props: { userId: number; name: string }) {
  const ui = useChatUi();
  return (
    <button
      type="button"
      class="person-card-button"
      aria-label={`User card: ${props.name}`}
      onClick={(e) => ui?.openUserCard(props.userId, e.currentTarget as HTMLElement)}
    >
      ⋮
    </button>
  );
}
