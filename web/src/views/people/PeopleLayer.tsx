import { useMemo, useState } from "preact/hooks";
import type { ComponentChildren } from "preact";
import type { Chat } from "../../model/chat.js";
import type { ChatState } from "../../model/store.js";
import { ChatUiContext, type ChatUi } from "./context.js";
import { ProfileDialog, UserCard } from "./UserCard.js";
import { SetStatusDialog } from "./SetStatusDialog.js";

/**
 * Provides {@link ChatUi} to the screen below it and renders what it opens:
 * the user card beside the name clicked, the full profile dialog, and the
 * "Set status" dialog (`statusOpen`, closed through `onStatusClose`).
 */
export function PeopleLayer(props: { chat: Chat; state: ChatState; statusOpen: boolean; onStatusClose(): void; children: ComponentChildren }) {
  const [card, setCard] = useState<{ userId: number; anchor: HTMLElement } | null>(null);
  const [profile, setProfile] = useState<number | null>(null);
  const ui = useMemo<ChatUi>(() => ({ chat: props.chat, openUserCard: (userId, anchor) => setCard({ userId, anchor }) }), [props.chat]);
  return (
    <ChatUiContext.Provider value={ui}>
      {props.children}
      {card && (
        <UserCard
          chat={props.chat}
          state={props.state}
          userId={card.userId}
          anchor={card.anchor}
          onClose={() => setCard(null)}
          onFullProfile={() => {
            setProfile(card.userId);
            setCard(null);
          }}
        />
      )}
      {profile !== null && <ProfileDialog state={props.state} userId={profile} onClose={() => setProfile(null)} />}
      {props.statusOpen && <SetStatusDialog chat={props.chat} state={props.state} onClose={props.onStatusClose} />}
    </ChatUiContext.Provider>
  );
}
