import { describe, expect, it } from "vitest";
import { renderStreamDescription } from "./render-description.js";

describe("renderStreamDescription", () => {
  it("links an image URL without an inline preview, as Zulip's descriptions (no_previews)", () => {
    const url = "https://pics.example.net/banner.png";
    expect(renderStreamDescription(`Our banner: ${url}`, "https://chat.example.org")).toBe(`<p>Our banner: <a href="${url}">${url}</a></p>`);
  });
});
