import { describe, expect, it } from "vitest";
import { INTEGRATION_URL_NAMES } from "./names.js";
import { integrationByName, integrationNames } from "./registry.js";

describe("INTEGRATION_URL_NAMES", () => {
  it("holds every integration's URL name", () => {
    for (const name of integrationNames()) expect(INTEGRATION_URL_NAMES.has(name), name).toBe(true);
  });

  it("holds only names the registry serves (aliases included)", () => {
    for (const name of INTEGRATION_URL_NAMES) expect(integrationByName(name), name).toBeDefined();
    expect(INTEGRATION_URL_NAMES.has("githubsponsors")).toBe(true);
    expect(integrationByName("nonexistent")).toBeUndefined();
  });
});
