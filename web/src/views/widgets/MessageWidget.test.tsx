// @vitest-environment happy-dom
import { render } from "preact";
import { act } from "preact/test-utils";
import { describe, expect, it } from "vitest";
import { useRenderHost } from "../test-host.js";
import { stateFromRegister } from "../../model/store.js";
import { streamMessage } from "../../model/test-fixtures.js";
import { MessageWidget } from "./MessageWidget.js";

const host = useRenderHost();
const state = stateFromRegister({
  user_id: 10,
  realm_users: [
    { user_id: 10, full_name: "Me", email: "me@example.com" },
    { user_id: 11, full_name: "Iago", email: "iago@example.com" },
  ],
});

const poll = streamMessage(1, {
  submessages: [
    { id: 1, message_id: 1, sender_id: 11, msg_type: "widget", content: JSON.stringify({ widget_type: "poll", extra_data: { question: "Lunch?", options: ["Pizza"] } }) },
    { id: 2, message_id: 1, sender_id: 11, msg_type: "widget", content: JSON.stringify({ type: "vote", key: "canned,0", vote: 1 }) },
  ],
});

describe("MessageWidget", () => {
  it("draws a poll with counts and voters, and a vote sends the reader's vote", async () => {
    // Prepare
    const sent: unknown[] = [];
    act(() =>
      render(
        <MessageWidget state={state} message={poll} send={async (_m, content) => void sent.push(content)}>
          <p>content</p>
        </MessageWidget>,
        host(),
      ),
    );
    // Assess: the widget in place of the content.
    expect(host().querySelector("h3")?.textContent).toBe("Lunch?");
    expect(host().textContent).not.toContain("content");
    expect(host().querySelector(".poll-voters")?.textContent).toBe("(Iago)");
    const vote = host().querySelector<HTMLButtonElement>('button[aria-label="Vote for Pizza (1 vote)"]')!;
    // Act
    await act(async () => vote.click());
    expect(sent).toEqual([{ type: "vote", key: "canned,0", vote: 1 }]);
  });

  it("shows the message's content when it has no widget, and no controls without a sender", () => {
    act(() =>
      render(
        <>
          <MessageWidget state={state} message={streamMessage(2)}>
            <p>plain</p>
          </MessageWidget>
          <MessageWidget state={state} message={poll}>
            <p>x</p>
          </MessageWidget>
        </>,
        host(),
      ),
    );
    expect(host().textContent).toContain("plain");
    expect(host().querySelector('button[aria-label^="Vote"]')?.hasAttribute("disabled")).toBe(true);
    expect([...host().querySelectorAll("button")].some((b) => b.textContent === "Add option")).toBe(false);
  });
});
