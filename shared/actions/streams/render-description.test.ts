import { describe, expect, it } from "vitest";
import { renderStreamDescription } from "./render-description.js";

describe("renderStreamDescription", () => {
  it("links an image URL without an inline preview, as Zulip's descriptions (no_previews)", async () => {
    const url = "https://pics.example.net/banner.png";
    expect(await renderStreamDescription(`Our banner: ${url}`, "https://chat.example.org")).toBe(`<p>Our banner: <a href="${url}">${url}</a></p>`);
  });

  it("renders an empty description to an empty string", async () => {
    expect(await renderStreamDescription("", "https://chat.example.org")).toBe("");
  });
});
