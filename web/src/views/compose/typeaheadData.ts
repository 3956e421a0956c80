import { useMemo } from "preact/hooks";
import type { MessageList } from "../../model/messages.js";
import type { ChatState } from "../../model/store.js";
import type { ComposeTypeaheadData } from "./ComposeTypeahead.js";

/**
 * The senders of a view's loaded messages, most recent first, each once:
 * the people of the conversation being written to, whom Zulip's `@`
 * typeahead lists first.
 */
export function recentSenders(list: Pick<MessageList, "messages">, limit = 50): number[] {
  const out: number[] = [];
  for (let i = list.messages.length - 1; i >= 0 && out.length < limit; i--) {
    const id = list.messages[i]!.sender_id;
    if (!out.includes(id)) out.push(id);
  }
  return out;
}

/** The compose typeahead's data from the client state and the open view's messages. */
export function useComposeTypeaheadData(state: ChatState, list: MessageList, loadTopics: (streamId: number) => void): ComposeTypeaheadData {
  const senders = useMemo(() => recentSenders(list), [list.messages]);
  const groups = useMemo(() => [...state.userGroups.values()], [state.userGroups]);
  return useMemo(
    () => ({
      recentSenders: senders,
      groups,
      topics: (streamId: number) => state.topics.get(streamId)?.map((t) => t.name),
      loadTopics,
      realmEmoji: state.realmEmoji,
      userId: state.me.user_id,
    }),
    [senders, groups, state.topics, state.realmEmoji, state.me.user_id],
  );
}
