import { expect, it } from "vitest";
import { WebhookPayloadError } from "../../shared/integrations/payload.js";
import { taigaIntegration } from "../../shared/integrations/taiga.js";
import { describeFixtures, fixtureRequest } from "../support/webhook-fixtures.js";
import { jsonWebhookRequest, renderFixtureResults } from "./fixture-snapshot.js";

const handle = taigaIntegration.handle;
const tomasz = "[TomaszKolek](https://tree.taiga.io/profile/kolaszek)";
const aditya = "[Aditya Verma](https://tree.taiga.io/profile/orientor)";
const message = (content: string) => ({ kind: "messages", eventType: null, messages: [{ topic: "General", content }] });

describeFixtures("taiga", (fixtures) => {
  it("reports a created user story, bold without a permalink", () => {
    expect(handle(fixtureRequest(fixtures[1]!))).toEqual(message(`${tomasz} created user story **New userstory**.`));
  });

  it("reports each change of a multi-change request on its own sorted line", () => {
    expect(handle(fixtureRequest(fixtures[12]!))).toEqual(
      message(
        `${tomasz} changed the status of user story **UserStory** from New to Done.\n` +
          `${tomasz} closed user story **UserStory**.`,
      ),
    );
  });

  it("links an item that has a permalink and reports a new due date", () => {
    expect(handle(fixtureRequest(fixtures[18]!))).toEqual(
      message(`${aditya} set the due date of user story [random](https://tree.taiga.io/project/orientor-sd/us/58) to 2020-02-15.`),
    );
  });

  it("reports a sprint's changed finish but not its unchanged start", () => {
    expect(handle(fixtureRequest(fixtures[35]!))).toEqual(
      message(`${tomasz} changed the estimated finish of sprint **New sprint** from 2017-01-24 to 2017-01-25.`),
    );
  });

  it("reports a related user story added to an epic", () => {
    expect(handle(fixtureRequest(fixtures[67]!))).toEqual(
      message(
        `${aditya} added the related user story [Nice Issue](https://tree.taiga.io/project/orientor-sd/us/54) ` +
          "to the epic [ASAS](https://tree.taiga.io/project/orientor-sd/epic/42).",
      ),
    );
  });

  it("reports the sender's test request", () => {
    expect(handle(fixtureRequest(fixtures[69]!))).toEqual(
      message("[Jan](https://tree.taiga.io/profile/kostek) sent a test request from the Taiga integration."),
    );
  });

  it("renders every fixture as reviewed", async () => {
    await expect(renderFixtureResults(taigaIntegration, fixtures)).toMatchFileSnapshot("./expected/taiga.md");
  });
});

const by = { full_name: "Ann" };

it("taiga: a change with nothing to report is ignored", () => {
  const body = { action: "change", type: "task", by, data: { subject: "T" }, change: { diff: { taskboard_order: { from: 1, to: 0 } }, comment: "" } };
  expect(handle(jsonWebhookRequest(body))).toEqual({ kind: "ignored", eventType: null });
});

it("taiga: an unknown item type is unsupported", () => {
  expect(handle(jsonWebhookRequest({ action: "create", type: "wikipage", by, data: {} }))).toEqual({
    kind: "unsupported",
    eventType: "wikipage",
  });
});

it("taiga: a request without its actor names the field", () => {
  expect(() => handle(jsonWebhookRequest({ action: "create", type: "task", data: { subject: "T" } }))).toThrow(
    new WebhookPayloadError('payload["by"] is missing'),
  );
});
