import { describe, expect, it } from "vitest";
import { WebhookPayloadError } from "../../shared/integrations/payload.js";
import { teamcityIntegration } from "../../shared/integrations/teamcity.js";
import type { WebhookResult } from "../../shared/integrations/types.js";
import { describeFixtures, fixtureRequest } from "../support/webhook-fixtures.js";
import { jsonWebhookRequest as webhookRequest, renderFixtureResults } from "./fixture-snapshot.js";

const handle = teamcityIntegration.handle;

const build = {
  buildFullName: "P :: C",
  buildStatusUrl: "http://tc/viewLog.html?buildId=1",
  buildNumber: "7",
  buildResult: "running",
  buildResultDelta: "unchanged",
  buildStatus: "Running",
};

describeFixtures("teamcity", (fixtures) => {
  it("renders every fixture as reviewed", async () => {
    await expect(renderFixtureResults(teamcityIntegration, fixtures)).toMatchFileSnapshot("./expected/teamcity.md");
  });

  it("reports a broken build with its status, topic with the branch when there is one", () => {
    expect(handle(fixtureRequest(fixtures[2]!))).toEqual({
      kind: "messages",
      eventType: null,
      messages: [
        {
          topic: "Project :: Compile",
          content:
            "Project :: Compile build 5535 - CL 123456 broke (status: Exit code 1 (new)) :thumbs_down:. " +
            "[Changes](http://teamcity/viewLog.html?buildTypeId=Project_Compile&buildId=19952&tab=buildChangesDiv) · " +
            "[Build log](http://teamcity/viewLog.html?buildTypeId=Project_Compile&buildId=19952)",
        },
      ],
    });
    const branched = handle(fixtureRequest(fixtures[1]!));
    expect(branched.kind === "messages" && branched.messages[0]!.topic).toBe("Project :: Compile (MyBranch)");
  });
});

describe("teamcity ignored payloads and refusals", () => {
  it("reports a started build", () => {
    const result = handle(webhookRequest({ build }));
    expect(result.kind === "messages" && result.messages[0]!.content.startsWith("P :: C build 7 started.")).toBe(true);
  });

  it("ignores other payload formats and personal builds", () => {
    expect(handle(webhookRequest({ text: "slack-style" }))).toEqual({ kind: "ignored", eventType: null });
    const personal = { ...build, teamcityProperties: [{ name: "env.BUILD_IS_PERSONAL", value: "true" }] };
    expect(handle(webhookRequest({ build: personal }))).toEqual({ kind: "ignored", eventType: null });
  });

  it("refuses a build without its number or with an unknown result", () => {
    const { buildNumber: _unused, ...unnumbered } = build;
    expect(() => handle(webhookRequest({ build: unnumbered }))).toThrow(
      new WebhookPayloadError('payload["build"]["buildNumber"] is missing'),
    );
    expect(() => handle(webhookRequest({ build: { ...build, buildResult: "odd" } }))).toThrow(WebhookPayloadError);
  });
});

/** One fixture of each event type the fixtures hold, with its exact result (checked against the payload). */
const ONE_PER_EVENT_TYPE: [number, WebhookResult][] = [
  [
    0,
    {
      kind: "messages",
      eventType: null,
      messages: [
        {
          topic: "Project :: Compile",
          content: "Project :: Compile build 5535 - CL 123456 succeeded :thumbs_up:. [Changes](http://teamcity/viewLog.html?buildTypeId=Project_Compile&buildId=19952&tab=buildChangesDiv) · [Build log](http://teamcity/viewLog.html?buildTypeId=Project_Compile&buildId=19952)"
        }
      ]
    }
  ]
];

describeFixtures("teamcity", (fixtures) => {
  it.each(ONE_PER_EVENT_TYPE)("fixture %i gives its exact result", (index, expected) => {
    expect(handle(fixtureRequest(fixtures[index]!))).toEqual(expected);
  });
});
