import { describe, expect, it } from "vitest";
import { parseEmojiCatalog } from "./emoji/catalog.js";
import { markdownShortcut } from "./markdown-keys.js";
import {
  applySuggestion,
  findTrigger,
  matchTopics,
  mentionSuggestions,
  streamSuggestions,
  suggestionsFor,
  type TypeaheadSource,
} from "./typeahead.js";

const people = [
  { user_id: 1, full_name: "Iago", email: "iago@zulip.com" },
  { user_id: 2, full_name: "Cordelia Lear", email: "cordelia@zulip.com" },
  { user_id: 3, full_name: "King Hamlet", email: "hamlet@zulip.com" },
  { user_id: 4, full_name: "Othello", email: "othello@zulip.com" },
  { user_id: 5, full_name: "Desdemona", email: "desdemona@zulip.com" },
  { user_id: 6, full_name: "Prospero from The Tempest", email: "prospero@zulip.com" },
  { user_id: 7, full_name: "Iago", email: "iago2@zulip.com" },
];

function source(over: Partial<TypeaheadSource> = {}): TypeaheadSource {
  return {
    people,
    recentSenders: [],
    groups: [
      { id: 20, name: "hamletcharacters", description: "Characters of Hamlet", is_system_group: false },
      { id: 21, name: "role:members", description: "Members", is_system_group: true },
    ],
    streams: [
      { stream_id: 1, name: "Denmark" },
      { stream_id: 2, name: "Verona" },
      { stream_id: 3, name: "design team" },
    ],
    topics: (id) => (id === 1 ? ["castle", "ghost sightings", "Castle walls"] : undefined),
    emoji: parseEmojiCatalog("#Activities\n1f389 tada\n#Smileys & Emotion\n1f642 smile slight_smile").unicode,
    inStream: true,
    ...over,
  };
}

describe("findTrigger", () => {
  it("finds what the text before the cursor completes", () => {
    expect(findTrigger("hi @Cord", 8)).toEqual({ kind: "mention", query: "Cord", start: 3, silent: false });
    expect(findTrigger("@_Cordelia Le", 13)).toEqual({ kind: "mention", query: "Cordelia Le", start: 0, silent: true });
    expect(findTrigger("see #Den", 8)).toEqual({ kind: "stream", query: "Den", start: 4 });
    expect(findTrigger("see #**Denmark>cas", 18)).toEqual({ kind: "topic", stream: "Denmark", query: "cas", start: 4 });
    expect(findTrigger("see #Denmark>", 13)).toEqual({ kind: "topic", stream: "Denmark", query: "", start: 4 });
    expect(findTrigger("so :tad", 7)).toEqual({ kind: "emoji", query: "tad", start: 3 });
    expect(findTrigger("@", 1)).toEqual({ kind: "mention", query: "", start: 0, silent: false });
  });

  it("completes nothing inside words, after a finished mention or for short emoji queries", () => {
    expect(findTrigger("mail me@zulip", 13)).toBeNull();
    expect(findTrigger("at 12:30", 8)).toBeNull();
    expect(findTrigger("smile :)", 8)).toBeNull();
    expect(findTrigger(":t", 2)).toBeNull();
    expect(findTrigger("@**Iago** ", 10)).toBeNull();
    expect(findTrigger("# Heading", 9)).toBeNull();
    // The cursor decides: text after it does not count.
    expect(findTrigger("hi @Cord and more", 8)).toMatchObject({ kind: "mention", query: "Cord" });
  });
});

describe("mention suggestions", () => {
  it("puts prefix matches before substring matches, recent senders first within each", () => {
    const plain = mentionSuggestions(source(), "e", false).map((s) => s.label);
    const recent = mentionSuggestions(source({ recentSenders: [4, 2] }), "e", false).map((s) => s.label);

    // Prefix of a name or email: none start with "e" but everyone contains it.
    expect(plain.slice(0, 3)).toEqual(["everyone", "Cordelia Lear", "Desdemona"]);
    expect(recent.slice(0, 4)).toEqual(["everyone", "Othello", "Cordelia Lear", "Desdemona"]);
  });

  it("offers full-name prefixes first, then word and email prefixes, then groups and wildcards", () => {
    const found = mentionSuggestions(source(), "ha", false);

    expect(found.map((s) => s.label)).toEqual(["King Hamlet", "hamletcharacters"]);
    expect(found[1]).toMatchObject({ insert: "@*hamletcharacters* ", detail: "Characters of Hamlet" });
  });

  it("inserts Zulip's syntax: the ID only when two people share the name; @_ when silent", () => {
    const cordelia = mentionSuggestions(source(), "Cord", false)[0];
    const iagos = mentionSuggestions(source(), "iago", true);
    const silentGroup = mentionSuggestions(source(), "hamletc", true);

    expect(cordelia?.insert).toBe("@**Cordelia Lear** ");
    expect(iagos.map((s) => s.insert)).toEqual(["@_**Iago|1** ", "@_**Iago|7** "]);
    expect(silentGroup.map((s) => s.insert)).toEqual(["@_*hamletcharacters* "]);
  });

  it("leaves out system groups, and the stream wildcards in direct messages", () => {
    expect(mentionSuggestions(source(), "role", false)).toEqual([]);
    expect(mentionSuggestions(source({ inStream: false }), "ch", false).map((s) => s.label)).toEqual(["hamletcharacters"]);
    expect(mentionSuggestions(source(), "ch", false).map((s) => s.label)).toEqual(["channel", "hamletcharacters"]);
  });
});

describe("stream, topic and emoji suggestions", () => {
  it("finds streams by prefix, then by a word, then by a part", () => {
    expect(streamSuggestions(source(), "d").map((s) => s.label)).toEqual(["Denmark", "design team"]);
    expect(streamSuggestions(source(), "team").map((s) => s.insert)).toEqual(["#**design team** "]);
    expect(streamSuggestions(source(), "ero").map((s) => s.label)).toEqual(["Verona"]);
  });

  it("finds a stream's topics and inserts #**stream>topic**", () => {
    const found = suggestionsFor(source(), { kind: "topic", stream: "denmark", query: "cas", start: 0 });

    expect(found.map((s) => s.insert)).toEqual(["#**Denmark>castle** ", "#**Denmark>Castle walls** "]);
    expect(suggestionsFor(source(), { kind: "topic", stream: "Nowhere", query: "", start: 0 })).toEqual([]);
  });

  it("matches topic names (the topic field's typeahead) without the one typed", () => {
    expect(matchTopics(["castle", "ghost sightings", "Castle walls", "old castle"], "castle")).toEqual(["Castle walls", "old castle"]);
  });

  it("inserts :name: for an emoji", () => {
    expect(suggestionsFor(source(), { kind: "emoji", query: "tad", start: 0 }).map((s) => s.insert)).toEqual([":tada: "]);
    expect(suggestionsFor(source(), { kind: "emoji", query: "slight", start: 0 }).map((s) => s.label)).toEqual(["smile"]);
  });
});

describe("applySuggestion", () => {
  it("replaces the token and puts the cursor after the insertion", () => {
    const text = "hello @Cord and";
    const trigger = findTrigger(text, 11)!;

    expect(applySuggestion(text, 11, trigger, "@**Cordelia Lear** ")).toEqual({ text: "hello @**Cordelia Lear** and", cursor: 25 });
    expect(applySuggestion(":tad", 4, findTrigger(":tad", 4)!, ":tada: ")).toEqual({ text: ":tada: ", cursor: 7 });
  });
});

describe("markdownShortcut", () => {
  const key = (k: string, shift = false) => ({ key: k, ctrlKey: true, metaKey: false, shiftKey: shift, altKey: false });

  it("makes the selection bold or italic, and undoes it on a second press", () => {
    const bold = markdownShortcut(key("b"), { text: "a word here", selStart: 2, selEnd: 6 })!;
    expect(bold).toEqual({ text: "a **word** here", selStart: 4, selEnd: 8 });
    expect(markdownShortcut(key("b"), bold)).toEqual({ text: "a word here", selStart: 2, selEnd: 6 });
    expect(markdownShortcut(key("i"), { text: "x", selStart: 1, selEnd: 1 })).toEqual({ text: "x**", selStart: 2, selEnd: 2 });
  });

  it("makes a link with url selected", () => {
    expect(markdownShortcut(key("L", true), { text: "see docs", selStart: 4, selEnd: 8 })).toEqual({ text: "see [docs](url)", selStart: 11, selEnd: 14 });
  });

  it("ignores other keys and plain letters", () => {
    expect(markdownShortcut({ ...key("b"), ctrlKey: false }, { text: "", selStart: 0, selEnd: 0 })).toBeNull();
    expect(markdownShortcut(key("k"), { text: "", selStart: 0, selEnd: 0 })).toBeNull();
  });
});
