import { describe, expect, it } from "vitest";
import { SYSTEM_GROUP_ID_BASE, systemGroupId } from "../../domain/realm-settings.js";
import { emptyMaps, mapGroupId, mapGroupSetting, mentionsOfRendered, remapEditHistory, remapText } from "./import-remap.js";

function maps() {
  const m = emptyMaps(3, 9);
  m.users.set(11, 101).set(12, 102);
  m.streams.set(5, 55);
  m.messages.set(40, 400);
  m.groups.set(7, 77);
  m.paths.set("3/ab/oldrandom/notes.txt", "9/cd/newrandom/notes.txt");
  return m;
}

describe("remapText", () => {
  it("rewrites mentions, stream links, message links, upload and emoji paths to the new realm's", () => {
    const html =
      '<p><span class="user-mention" data-user-id="11">@A</span> ' +
      '<span class="user-group-mention" data-user-group-id="7">@g</span> ' +
      `<span class="user-group-mention" data-user-group-id="${systemGroupId(3, "role:members")}">@members</span> ` +
      '<a class="stream" data-stream-id="5" href="/#narrow/channel/5-general">#general</a> ' +
      '<a href="/#narrow/channel/5-general/topic/t/near/40">x</a> <a href="/#narrow/dm/11,12-group">dm</a> ' +
      '<a href="/user_uploads/3/ab/oldrandom/notes.txt">notes</a> <img src="/user_uploads/thumbnail/3/ab/oldrandom/notes.txt/840x560.webp"> ' +
      '<img class="emoji" src="/user_avatars/3/emoji/images/0123456789abcdef.png"></p>';
    expect(remapText(html, maps())).toBe(
      '<p><span class="user-mention" data-user-id="101">@A</span> ' +
        '<span class="user-group-mention" data-user-group-id="77">@g</span> ' +
        `<span class="user-group-mention" data-user-group-id="${systemGroupId(9, "role:members")}">@members</span> ` +
        '<a class="stream" data-stream-id="55" href="/#narrow/channel/55-general">#general</a> ' +
        '<a href="/#narrow/channel/55-general/topic/t/near/400">x</a> <a href="/#narrow/dm/101,102-group">dm</a> ' +
        '<a href="/user_uploads/9/cd/newrandom/notes.txt">notes</a> <img src="/user_uploads/thumbnail/9/cd/newrandom/notes.txt/840x560.webp"> ' +
        '<img class="emoji" src="/user_avatars/9/emoji/images/0123456789abcdef.png"></p>',
    );
  });

  it("leaves IDs it has no mapping for (another stream's, another realm's upload) as they are", () => {
    const text = 'data-stream-id="6" data-user-id="99" /user_uploads/4/ab/x/y.txt';
    expect(remapText(text, maps())).toBe(text);
  });
});

describe("mentionsOfRendered", () => {
  it("reads direct user and group mentions and wildcards, not silent ones", () => {
    const html =
      '<span class="user-mention" data-user-id="101">@A</span><span class="user-mention silent" data-user-id="102">B</span>' +
      '<span class="user-group-mention" data-user-group-id="77">@g</span><span class="user-group-mention silent" data-user-group-id="78">g2</span>';
    expect(mentionsOfRendered(html)).toEqual({ mentioned_user_ids: [101], mentioned_group_ids: [77], wildcard_mentioned: false });
    expect(mentionsOfRendered('<span class="user-mention" data-user-id="*">@all</span>').wildcard_mentioned).toBe(true);
    expect(mentionsOfRendered('<span class="user-mention silent" data-user-id="*">all</span>').wildcard_mentioned).toBe(false);
  });
});

describe("group IDs", () => {
  it("maps user groups by the map and system groups by their place; others are unknown", () => {
    expect(mapGroupId(maps(), 7)).toBe(77);
    expect(mapGroupId(maps(), systemGroupId(3, "role:nobody"))).toBe(systemGroupId(9, "role:nobody"));
    expect(mapGroupId(maps(), 8)).toBeUndefined();
    expect(mapGroupId(maps(), SYSTEM_GROUP_ID_BASE + 4 * 16)).toBeUndefined();
  });

  it("maps group-setting values, dropping unknown members, with a fallback for an unknown group", () => {
    expect(mapGroupSetting(maps(), { direct_members: [11, 13], direct_subgroups: [7, 8] }, 1)).toEqual({ direct_members: [101], direct_subgroups: [77] });
    expect(mapGroupSetting(maps(), 8, 1)).toBe(1);
    expect(mapGroupSetting(maps(), "junk", 2)).toBe(2);
  });
});

describe("remapEditHistory", () => {
  it("remaps editors and streams and rewrites earlier content; unreadable history is dropped", () => {
    const history = JSON.stringify([{ user_id: 11, timestamp: 5, prev_stream: 5, stream: 6, prev_content: "see /user_uploads/3/ab/oldrandom/notes.txt" }]);
    expect(remapEditHistory(history, maps())).toEqual([
      { user_id: 101, timestamp: 5, prev_stream: 55, stream: 6, prev_content: "see /user_uploads/9/cd/newrandom/notes.txt" },
    ]);
    expect(remapEditHistory("{not json", maps())).toEqual([]);
    expect(remapEditHistory(null, maps())).toEqual([]);
  });
});
