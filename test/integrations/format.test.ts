import { describe, expect, it } from "vitest";
import { globalTime, globalTimeFromEpoch, manyMessages, quoteBlock, singleMessage } from "../../shared/integrations/format.js";
import { WebhookPayloadError } from "../../shared/integrations/payload.js";
import { integrationByName, integrationNames } from "../../shared/integrations/registry.js";

describe("integration format helpers", () => {
  it("writes Zulip global times from ISO strings and Unix times", () => {
    expect(globalTime("2024-03-01T02:09:00Z")).toBe("<time:2024-03-01T02:09:00Z>");
    expect(globalTimeFromEpoch(1655945306)).toBe("<time:2022-06-23T00:48:26Z>");
    expect(globalTimeFromEpoch(1605133931151, "ms")).toBe("<time:2020-11-11T22:32:11.151Z>");
  });

  it("refuses a Unix time no date can hold", () => {
    expect(() => globalTimeFromEpoch(1e20, "ms")).toThrow(new WebhookPayloadError("100000000000000000000 is not a valid time"));
  });

  it("quotes text in a quote fence, trimmed", () => {
    expect(quoteBlock("\nsaid\n\n")).toBe("```quote\nsaid\n```");
  });

  it("fences a quote longer than any backtick run inside it", () => {
    expect(quoteBlock("```\ncode\n```")).toBe("````quote\n```\ncode\n```\n````");
  });

  it("builds message results", () => {
    expect(singleMessage("push", "t", "c")).toEqual({ kind: "messages", eventType: "push", messages: [{ topic: "t", content: "c" }] });
    expect(manyMessages(null, [])).toEqual({ kind: "messages", eventType: null, messages: [] });
  });
});

describe("monitoring, CI and work-tracking integrations in the registry", () => {
  const expected: Record<string, string> = {
    alertmanager: "Alertmanager",
    buildbot: "Buildbot",
    circleci: "CircleCI",
    grafana: "Grafana",
    jira: "Jira",
    linear: "Linear",
    newrelic: "NewRelic",
    opsgenie: "Opsgenie",
    pagerduty: "PagerDuty",
    sentry: "Sentry",
    slack_incoming: "SlackIncoming",
    teamcity: "TeamCity",
    travis: "Travis",
    trello: "Trello",
  };

  it("serves each under its URL name with Zulip's display name", () => {
    for (const [name, displayName] of Object.entries(expected)) {
      expect(integrationByName(name)?.displayName).toBe(displayName);
      expect(integrationNames()).toContain(name);
    }
  });
});
