/**
 * The compose box's typeahead (https://zulip.com/help/mention-a-user-or-group,
 * https://zulip.com/help/link-to-a-message-or-conversation,
 * https://zulip.com/help/emoji-and-emoticons): what the text before the
 * cursor asks for (`@` people and groups, `@_` silent mentions, `#` streams,
 * `#stream>` topics, `:` emoji), the suggestions in Zulip's order, and the
 * Markdown each one inserts. Plain functions: the view only renders them.
 */
import { searchEmoji, type EmojiEntry } from "./emoji/catalog.js";

/** What the text before the cursor is completing, and where that token starts. */
export type TypeaheadTrigger =
  | { kind: "mention"; query: string; start: number; silent: boolean }
  | { kind: "stream"; query: string; start: number }
  | { kind: "topic"; stream: string; query: string; start: number }
  | { kind: "emoji"; query: string; start: number };

/** A person as the typeahead knows them. */
export interface TypeaheadPerson {
  user_id: number;
  full_name: string;
  email: string;
}

/** What the suggestions are drawn from. */
export interface TypeaheadSource {
  people: readonly TypeaheadPerson[];
  /** People who spoke most recently in the conversation being written to (or the whole feed), most recent first. */
  recentSenders: readonly number[];
  groups: readonly { id: number; name: string; description: string; is_system_group: boolean }[];
  streams: readonly { stream_id: number; name: string }[];
  /** A stream's topic names, newest first; undefined until fetched. */
  topics(streamId: number): readonly string[] | undefined;
  /** Every emoji (custom first); empty until the catalog is loaded. */
  emoji: readonly EmojiEntry[];
  /** Whether the message goes to a stream (the `@**channel**`/`@**topic**` wildcards are offered there only). */
  inStream: boolean;
}

/** One suggestion: what the list shows and what choosing it inserts. */
export interface Suggestion {
  /** Unique in the list (the option's element ID is made from it). */
  key: string;
  label: string;
  /** A second line: an email, a group's description. */
  detail?: string;
  /** The Markdown that replaces the token, with the space after it. */
  insert: string;
  /** The emoji of a `:` suggestion, to draw it. */
  emoji?: EmojiEntry;
}

/** How many suggestions the list shows (Zulip's typeahead shows 8 at a time). */
export const MAX_SUGGESTIONS = 8;

// A token starts at the beginning of the text or after whitespace or an opening bracket.
const MENTION = /(?:^|[\s(\[{])@(_?)(?:\*\*)?([^\s*@][^*@\n]{0,39})?$/;
const TOPIC = /(?:^|[\s(\[{])#(?:\*\*)?([^\s*>#][^*>\n]{0,59})>([^*\n]{0,60})$/;
const STREAM = /(?:^|[\s(\[{])#(?:\*\*)?([^\s*>#][^*>\n]{0,59})?$/;
const EMOJI = /(?:^|[\s(\[{])(:[a-z0-9_+-]{2,})$/i;

/**
 * What `text` asks to complete at `cursor` (the caret's offset; a selection
 * completes nothing), or null. A mention, stream or topic query may hold
 * spaces ("@Cordelia Le"); an emoji query needs two characters after `:`
 * (so `:)` and `12:30` complete nothing).
 */
export function findTrigger(text: string, cursor: number): TypeaheadTrigger | null {
  const before = text.slice(0, cursor);
  let m = EMOJI.exec(before);
  if (m) return { kind: "emoji", query: m[1]!.slice(1), start: cursor - m[1]!.length };
  m = TOPIC.exec(before);
  if (m) return { kind: "topic", stream: m[1]!.trim(), query: m[2]!, start: m.index + m[0].indexOf("#") };
  m = STREAM.exec(before);
  if (m) return { kind: "stream", query: m[1] ?? "", start: m.index + m[0].indexOf("#") };
  m = MENTION.exec(before);
  if (m) return { kind: "mention", query: m[2] ?? "", start: m.index + m[0].indexOf("@"), silent: m[1] === "_" };
  return null;
}

/**
 * How well a query matches a person: 0 the full name starts with it, 1 a word
 * of the name does, 2 the email does, 3 the name or email contains it
 * (`substring`), -1 no match. `query` is lowercased and trimmed.
 */
export function personMatchRank(person: TypeaheadPerson, query: string, substring = true): number {
  const name = person.full_name.toLowerCase();
  const email = person.email.toLowerCase();
  if (name.startsWith(query)) return 0;
  if (name.split(/\s+/).some((w) => w.startsWith(query))) return 1;
  if (email.startsWith(query)) return 2;
  if (substring && (name.includes(query) || email.includes(query))) return 3;
  return -1;
}

/** How well a query matches a name (stream, group): 0 prefix, 1 a word's prefix, 2 contains, -1 none. */
function nameRank(name: string, query: string): number {
  const n = name.toLowerCase();
  if (n.startsWith(query)) return 0;
  if (n.split(/[\s_\-/]+/).some((w) => w.startsWith(query))) return 1;
  return n.includes(query) ? 2 : -1;
}

/** Zulip's mention syntax: `@**Name**`, with `|id` when another person has the same name; `@_` silent. */
export function mentionSyntax(person: TypeaheadPerson, people: readonly TypeaheadPerson[], silent: boolean): string {
  const duplicate = people.some((p) => p.user_id !== person.user_id && p.full_name.toLowerCase() === person.full_name.toLowerCase());
  return `@${silent ? "_" : ""}**${person.full_name}${duplicate ? `|${person.user_id}` : ""}**`;
}

/** Zulip's wildcard mentions (https://zulip.com/help/mention-a-user-or-group#mention-everyone-on-a-stream). */
const WILDCARDS = [
  { name: "all", detail: "Notify channel", streamOnly: false },
  { name: "everyone", detail: "Notify channel", streamOnly: false },
  { name: "channel", detail: "Notify channel", streamOnly: true },
  { name: "topic", detail: "Notify topic", streamOnly: true },
];

/**
 * The people, groups and wildcards an `@` query finds, in Zulip's order:
 * people whose name, a word of it or whose email starts with the query come
 * before those who merely contain it; within each, the recent senders of the
 * conversation come first (most recent first), then the better match, then by
 * name. Groups (not the system ones) follow the people of the same kind of
 * match; wildcards (not for silent mentions) follow the prefix matches.
 */
export function mentionSuggestions(source: TypeaheadSource, query: string, silent: boolean): Suggestion[] {
  const q = query.trim().toLowerCase();
  const recency = new Map(source.recentSenders.map((id, i) => [id, i]));
  const people = source.people
    .map((p) => ({ p, rank: q ? personMatchRank(p, q) : 0 }))
    .filter((x) => x.rank >= 0)
    .sort(
      (a, b) =>
        Number(a.rank === 3) - Number(b.rank === 3) ||
        (recency.get(a.p.user_id) ?? Infinity) - (recency.get(b.p.user_id) ?? Infinity) ||
        a.rank - b.rank ||
        a.p.full_name.localeCompare(b.p.full_name),
    );
  const person = (x: (typeof people)[number]): Suggestion => ({
    key: `user-${x.p.user_id}`,
    label: x.p.full_name,
    detail: x.p.email,
    insert: `${mentionSyntax(x.p, source.people, silent)} `,
  });
  const groups = source.groups
    .filter((g) => !g.is_system_group)
    .map((g) => ({ g, rank: q ? nameRank(g.name, q) : 0 }))
    .filter((x) => x.rank >= 0)
    .sort((a, b) => a.rank - b.rank || a.g.name.localeCompare(b.g.name));
  const group = (x: (typeof groups)[number]): Suggestion => ({
    key: `group-${x.g.id}`,
    label: x.g.name,
    detail: x.g.description,
    insert: `@${silent ? "_" : ""}*${x.g.name}* `,
  });
  const wildcards: Suggestion[] = silent
    ? []
    : WILDCARDS.filter((w) => (source.inStream || !w.streamOnly) && w.name.startsWith(q)).map((w) => ({
        key: `wildcard-${w.name}`,
        label: w.name,
        detail: w.detail,
        insert: `@**${w.name}** `,
      }));
  return [
    ...people.filter((x) => x.rank < 3).map(person),
    ...groups.filter((x) => x.rank < 2).map(group),
    ...wildcards,
    ...people.filter((x) => x.rank === 3).map(person),
    ...groups.filter((x) => x.rank === 2).map(group),
  ].slice(0, MAX_SUGGESTIONS);
}

/** The streams a `#` query finds: names starting with it, then a word starting with it, then containing it; by name. */
export function streamSuggestions(source: TypeaheadSource, query: string): Suggestion[] {
  const q = query.trim().toLowerCase();
  return source.streams
    .map((s) => ({ s, rank: q ? nameRank(s.name, q) : 0 }))
    .filter((x) => x.rank >= 0)
    .sort((a, b) => a.rank - b.rank || a.s.name.localeCompare(b.s.name))
    .slice(0, MAX_SUGGESTIONS)
    .map(({ s }) => ({ key: `stream-${s.stream_id}`, label: s.name, insert: `#**${s.name}** ` }));
}

/**
 * The topic names a query finds, best first: those starting with it, then
 * those containing it, each newest first (the order of `topics`). The exact
 * name typed is no suggestion of its own.
 */
export function matchTopics(topics: readonly string[], query: string): string[] {
  const q = query.trim().toLowerCase();
  const found = topics.filter((t) => t.toLowerCase().includes(q) && t.toLowerCase() !== q);
  return [...found.filter((t) => t.toLowerCase().startsWith(q)), ...found.filter((t) => !t.toLowerCase().startsWith(q))].slice(0, MAX_SUGGESTIONS);
}

/** The topics a `#stream>` query finds in that stream, each inserting `#**stream>topic**`. */
export function topicSuggestions(source: TypeaheadSource, streamName: string, query: string): Suggestion[] {
  const stream = source.streams.find((s) => s.name.toLowerCase() === streamName.toLowerCase());
  if (!stream) return [];
  return matchTopics(source.topics(stream.stream_id) ?? [], query).map((t) => ({
    key: `topic-${t}`,
    label: t,
    detail: stream.name,
    insert: `#**${stream.name}>${t}** `,
  }));
}

/** The emoji a `:` query finds (the picker's search order), each inserting `:name:`. */
export function emojiSuggestions(source: TypeaheadSource, query: string): Suggestion[] {
  return searchEmoji(source.emoji, query, MAX_SUGGESTIONS).map((e) => ({
    key: `emoji-${e.reaction_type}-${e.code}`,
    label: e.name,
    insert: `:${e.name}: `,
    emoji: e,
  }));
}

/** The suggestions for a trigger. */
export function suggestionsFor(source: TypeaheadSource, trigger: TypeaheadTrigger): Suggestion[] {
  switch (trigger.kind) {
    case "mention":
      return mentionSuggestions(source, trigger.query, trigger.silent);
    case "stream":
      return streamSuggestions(source, trigger.query);
    case "topic":
      return topicSuggestions(source, trigger.stream, trigger.query);
    case "emoji":
      return emojiSuggestions(source, trigger.query);
  }
}

/**
 * The text after choosing a suggestion: the token from `trigger.start` to
 * the cursor replaced by `insert`; the cursor goes after it.
 */
export function applySuggestion(text: string, cursor: number, trigger: TypeaheadTrigger, insert: string): { text: string; cursor: number } {
  const head = text.slice(0, trigger.start) + insert;
  const tail = text.slice(cursor);
  // One space between the insertion and what follows is enough.
  return { text: head + (insert.endsWith(" ") && tail.startsWith(" ") ? tail.slice(1) : tail), cursor: head.length };
}
