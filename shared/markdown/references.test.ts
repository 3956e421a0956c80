import { describe, expect, it } from "vitest";
import { collectReferences } from "./index.js";

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
      hasWildcard: false,
    });
  });
});
