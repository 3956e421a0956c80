import { describe, expect, it } from "vitest";
import { integrationByName, integrationNames } from "../../shared/integrations/registry.js";

/** The thirty-eight integrations the server serves. */
const BATCH = [
  "alertmanager",
  "azuredevops",
  "bitbucket2",
  "bitbucket3",
  "buildbot",
  "circleci",
  "gitea",
  "github",
  "gitlab",
  "gogs",
  "grafana",
  "jira",
  "json",
  "linear",
  "newrelic",
  "opsgenie",
  "pagerduty",
  "sentry",
  "slack_incoming",
  "teamcity",
  "travis",
  "trello",
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
  it("serves GitHub Sponsors' deliveries (/external/githubsponsors) with the GitHub integration", () => {
    expect(integrationByName("githubsponsors")?.name).toBe("github");
    expect(integrationNames()).not.toContain("githubsponsors");
  });

  it("knows no other name", () => {
    expect(integrationByName("nosuchintegration")).toBeUndefined();
    expect(integrationByName("__proto__")).toBeUndefined();
  });

  it.each(BATCH)("serves %s under its own URL name", (name) => {
    expect(integrationByName(name)?.name).toBe(name);
  });

  it("lists them among its sorted names", () => {
    const names = integrationNames();
    expect(names).toEqual([...names].sort());
    expect(names).toEqual([...BATCH].sort());
  });

  it("knows no integration by an unknown name", () => {
    expect(integrationByName("no-such-integration")).toBeUndefined();
  });
});
