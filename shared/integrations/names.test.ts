import { describe, expect, it } from "vitest";
import { INTEGRATION_LISTINGS, INTEGRATION_URL_NAMES } from "./names.js";
import { loadIntegration } from "./load.js";
import { integrationByName, integrationNames } from "./registry.js";

describe("INTEGRATION_LISTINGS", () => {
  it("lists every integration of the registry, in order, with its display name and event types", () => {
    const fromRegistry = integrationNames().map((name) => {
      const integration = integrationByName(name)!;
      return {
        name,
        displayName: integration.displayName,
        ...(integration.allEventTypes ? { allEventTypes: [...integration.allEventTypes] } : {}),
      };
    });
    expect(INTEGRATION_LISTINGS.map((i) => ({ ...i, ...(i.allEventTypes ? { allEventTypes: [...i.allEventTypes] } : {}) }))).toEqual(fromRegistry);
  });
});

describe("loadIntegration", () => {
  it("loads the registry's integration of every URL name, aliases included, and nothing else", async () => {
    for (const name of INTEGRATION_URL_NAMES) expect(await loadIntegration(name), name).toBe(integrationByName(name));
    expect((await loadIntegration("githubsponsors"))?.name).toBe("github");
    expect(await loadIntegration("nonexistent")).toBeUndefined();
    expect(await loadIntegration("__proto__")).toBeUndefined();
    expect(await loadIntegration("toString")).toBeUndefined();
  });
});

describe("INTEGRATION_URL_NAMES", () => {
  it("holds every integration's URL name", () => {
    for (const name of integrationNames()) expect(INTEGRATION_URL_NAMES.has(name), name).toBe(true);
  });

  it("holds only names the registry serves (aliases included)", () => {
    for (const name of INTEGRATION_URL_NAMES) expect(integrationByName(name), name).toBeDefined();
    expect(INTEGRATION_URL_NAMES.has("githubsponsors")).toBe(true);
    expect(INTEGRATION_URL_NAMES.has("nonexistent")).toBe(false);
  });
});
