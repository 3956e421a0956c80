import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { useTestOrg } from "../support/local-stack.js";
import { createStream, messageText, sendStreamMessage, unique, useBrowser, visible, WAIT_MS } from "./support.js";

const org = useTestOrg();
const browsers = useBrowser();

/** Every event queue the page registers (`POST /json/register` answers), in order. */
function watchRegistrations(page: Page): { queueIds: string[]; next(after: number): Promise<string> } {
  const queueIds: string[] = [];
  const waiters: (() => void)[] = [];
  page.on("response", async (res) => {
    if (new URL(res.url()).pathname !== "/json/register" || !res.ok()) return;
    const body = (await res.json().catch(() => ({}))) as { queue_id?: string };
    if (body.queue_id) {
      queueIds.push(body.queue_id);
      for (const wake of waiters.splice(0)) wake();
    }
  });
  return {
    queueIds,
    /** Resolves with the first queue registered after the first `after` ones. */
    async next(after: number) {
      // The long poll on the deleted queue ends at its hold time (20 s by default) before the app learns of it.
      const deadline = Date.now() + 3 * WAIT_MS;
      while (queueIds.length <= after) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no new event queue registered within ${3 * WAIT_MS} ms`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return queueIds[after];
    },
  };
}

describe("staying live", () => {
  it("after the event queue is deleted on the server, the app registers a new one and shows messages sent meanwhile and after", async () => {
    // Prepare: the member reads the combined feed with a live queue.
    const stream = unique("beacon");
    await createStream(org, org.users.owner, stream, [org.users.owner, org.users.member]);
    const before = unique("before the outage ");
    await sendStreamMessage(org, org.users.owner, stream, "signals", before);
    const person = await browsers.newPerson(org, org.users.member);
    const registrations = watchRegistrations(person.page);
    // The person signed in before the watch began: reload so the registration is seen.
    await person.page.reload();
    await visible(messageText(person.page, before));
    const queueId = await registrations.next(0);

    // Act: the server forgets the queue (as when it expires), and a message is sent while the app does not know it.
    const deleted = await org.api(org.users.member, "DELETE", "/events", { queue_id: queueId });
    expect(deleted.body).toMatchObject({ result: "success" });
    const meanwhile = unique("during the outage ");
    await sendStreamMessage(org, org.users.owner, stream, "signals", meanwhile);

    // Assess: a new queue, the missed message fetched again, and later messages live through the new queue.
    const newQueueId = await registrations.next(1);
    expect(newQueueId).not.toBe(queueId);
    await visible(messageText(person.page, meanwhile));
    const after = unique("after the outage ");
    await sendStreamMessage(org, org.users.owner, stream, "signals", after);
    await visible(messageText(person.page, after));
    expect(registrations.queueIds).toHaveLength(2);
  });
});
