import { describe, expect, it } from "vitest";
import { integrationByName, integrationNames } from "../../shared/integrations/registry.js";

/** The integrations of the monitoring, media, payments and project-tracking batch. */
const BATCH = [
  "ansibletower",
  "groove",
  "harbor",
  "homeassistant",
  "netlify",
  "patreon",
  "radarr",
  "reviewboard",
  "sonarqube",
  "sonarr",
  "splunk",
  "statuspage",
  "stripe",
  "taiga",
  "uptimerobot",
  "zabbix",
];

describe("integration registry", () => {
  it.each(BATCH)("serves %s under its own URL name", (name) => {
    expect(integrationByName(name)?.name).toBe(name);
  });

  it("lists them among its sorted names", () => {
    const names = integrationNames();
    expect(names).toEqual([...names].sort());
    expect(names).toEqual(expect.arrayContaining(BATCH));
  });

  it("knows no integration by an unknown name", () => {
    expect(integrationByName("no-such-integration")).toBeUndefined();
  });
});
