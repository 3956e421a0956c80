import { expect, it } from "vitest";
import { ansibletowerIntegration } from "../../shared/integrations/ansibletower.js";
import { WebhookPayloadError } from "../../shared/integrations/payload.js";
import { describeFixtures, fixtureRequest } from "../support/webhook-fixtures.js";
import { jsonWebhookRequest, renderFixtureResults } from "./fixture-snapshot.js";

const handle = ansibletowerIntegration.handle;

describeFixtures("ansibletower", (fixtures) => {
  it("reports a project update's outcome, topic the job name", () => {
    expect(handle(fixtureRequest(fixtures[1]!))).toEqual({
      kind: "messages",
      eventType: null,
      messages: [
        {
          topic: "AWX - Project Update",
          content: "Project Update: [#2678 AWX - Project Update](http://awx.example.co.uk/#/jobs/project/2678) failed.",
        },
      ],
    });
  });

  it("lists a playbook job's hosts, sorted, with their outcome", () => {
    expect(handle(fixtureRequest(fixtures[2]!))).toEqual({
      kind: "messages",
      eventType: null,
      messages: [
        {
          topic: "System - Deploy - Zabbix Agent",
          content:
            "Job: [#2674 System - Deploy - Zabbix Agent](http://awx.example.co.uk/#/jobs/playbook/2674) was successful:\n" +
            "* chat.example.co.uk: Success\n* devops.example.co.uk: Success\n* gitlab.example.co.uk: Success\n" +
            "* ipa.example.co.uk: Success\n* mail.example.co.uk: Success",
        },
      ],
    });
  });

  it("takes the job kind from the URL when there is no friendly name", () => {
    expect(handle(fixtureRequest(fixtures[4]!))).toEqual({
      kind: "messages",
      eventType: null,
      messages: [
        {
          topic: "Demo Job Template",
          content: "Job: [#1 Demo Job Template](https://towerhost/#/jobs/playbook/1) was successful:\n* localhost: Success",
        },
      ],
    });
  });

  it("renders every fixture as reviewed", async () => {
    await expect(renderFixtureResults(ansibletowerIntegration, fixtures)).toMatchFileSnapshot("./expected/ansibletower.md");
  });
});

it("ansibletower: a playbook job without hosts names the field", () => {
  const body = { name: "n", id: 1, url: "u", status: "failed", friendly_name: "Job" };
  expect(() => handle(jsonWebhookRequest(body))).toThrow(new WebhookPayloadError('payload["hosts"] is missing'));
});

it("ansibletower: a job without an id names the field", () => {
  const body = { name: "n", url: "u", status: "failed", friendly_name: "System Job" };
  expect(() => handle(jsonWebhookRequest(body))).toThrow(new WebhookPayloadError('payload["id"] is missing'));
});
