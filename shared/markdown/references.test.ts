import { describe, expect, it } from "vitest";
import { collectReferences } from "./render.js";

describe("collectReferences", () => {
  it("finds user names, ids, groups, channels and wildcards", () => {
    const refs = collectReferences(
      "hi @**Full Name** and @_**Iago** (@**Twin|16**) @**|15** @*support* @_*Design team* " +
        "#**Denmark** #**my stream>lunch** @**all**",
    );
    expect(refs).toEqual({
      userNames: ["Full Name", "Iago"],
      userIds: [16, 15],
      groupNames: ["support", "Design team"],
      streamNames: ["Denmark", "my stream>lunch", "my stream"],
      uploadPathIds: [],
      hasWildcard: true,
    });
  });

  it.each(["all", "everyone", "stream", "channel", "topic"])("counts @**%s** as a wildcard, not a name", (name) => {
    expect(collectReferences(`@**${name}**`)).toMatchObject({ userNames: [], hasWildcard: true });
  });

  it("ignores mentions glued to a word and deduplicates", () => {
    expect(collectReferences("mail@**Iago** @**Iago** @**Iago**")).toMatchObject({ userNames: ["Iago"] });
  });

  it("returns empty lists for plain text", () => {
    expect(collectReferences("nothing to see **here**")).toEqual({
      userNames: [],
      userIds: [],
      groupNames: [],
      streamNames: [],
      uploadPathIds: [],
      hasWildcard: false,
    });
  });

  it("finds upload paths in links, bare URLs and absolute URLs, decoded and deduplicated", () => {
    const content =
      "[a.png](/user_uploads/2/ab/x1/a.png) and https://chat.example.com/user_uploads/2/cd/y2/b%20c.pdf, " +
      "<https://chat.example.com/user_uploads/3/ef/z3/d.gif> [again](/user_uploads/2/ab/x1/a.png?x=1#frag) /user_uploads/notanid/x";
    expect(collectReferences(content).uploadPathIds).toEqual(["2/ab/x1/a.png", "2/cd/y2/b c.pdf", "3/ef/z3/d.gif"]);
  });
});
