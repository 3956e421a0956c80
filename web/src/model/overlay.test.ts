import { describe, expect, it } from "vitest";
import { overlayHash, parseOverlayHash } from "./overlay.js";

describe("overlay hashes", () => {
  it("reads each area with its default section and the rest of the path", () => {
    expect(parseOverlayHash("#settings")).toEqual({ area: "settings", section: "profile", rest: [] });
    expect(parseOverlayHash("#organization/users/deactivated")).toEqual({ area: "organization", section: "users", rest: ["deactivated"] });
    expect(parseOverlayHash("#streams/12/general%20chat/general")).toEqual({ area: "channels", section: "12", rest: ["general chat", "general"] });
  });

  it("leaves chat views to the narrow parser", () => {
    expect(parseOverlayHash("#narrow/channel/12-general")).toBeNull();
    expect(parseOverlayHash("#inbox")).toBeNull();
    expect(parseOverlayHash("")).toBeNull();
  });

  it("writes a hash that reads back", () => {
    const hash = overlayHash("channels", "7", "Design & build", "general");
    expect(hash).toBe("#channels/7/Design%20%26%20build/general");
    expect(parseOverlayHash(hash)).toEqual({ area: "channels", section: "7", rest: ["Design & build", "general"] });
  });
});
