import { jsonPayload, type Payload } from "./payload.js";
import { singleMessage } from "./format.js";
import type { Integration, WebhookResult } from "./types.js";

/** Card actions Trello sends that are deliberately not reported. */
const IGNORED_ACTIONS = ["copyCard", "createCheckItem", "updateCheckItem", "updateList"];

/** Card updates that change nothing a reader follows: position in a list, cover, due-complete flag. */
const IGNORED_CARD_FIELDS = ["cover", "dueComplete", "idAttachmentCover", "pos"];

/** `2016-05-11T10:00:00.000Z` → `2016-05-11 10:00:00 UTC`. */
function readableDate(iso: string): string {
  return iso.replace("T", " ").replace(".000", "").replace("Z", " UTC");
}

function quote(text: string): string {
  return `~~~ quote\n${text}\n~~~`;
}

/** `[card](https://trello.com/c/<shortLink>)`. */
function cardLink(data: Payload): string {
  const card = data.get("card");
  return `[${card.get("name").str()}](https://trello.com/c/${card.get("shortLink").str()})`;
}

/** `[board](https://trello.com/b/<shortLink>)`. */
function boardLink(data: Payload): string {
  const board = data.get("board");
  return `[${board.get("name").str()}](https://trello.com/b/${board.get("shortLink").str()})`;
}

/** Nullable string member of an object (`undefined` when absent). */
function field(object: Payload, key: string): string | null | undefined {
  const value = object.opt(key);
  if (value.value === undefined) return undefined;
  return value.exists() ? value.str() : null;
}

/** What an `updateCard` did, told apart by the fields of `old`; null for a change not worth a message. */
function cardUpdate(data: Payload): string | null | "unsupported" {
  const old = data.get("old");
  const card = data.get("card");
  const link = () => cardLink(data);
  if (data.opt("listBefore").exists()) {
    return `moved card ${link()} from list **${data.get("listBefore").get("name").str()}** to **${data.get("listAfter").get("name").str()}**.`;
  }
  const oldName = field(old, "name");
  if (oldName) return `renamed card "${oldName}" to ${link()}.`;
  const oldDesc = field(old, "desc");
  if (oldDesc === "") return `set the description of ${link()} to:\n${quote(card.get("desc").str())}`;
  if (oldDesc) {
    const desc = field(card, "desc");
    if (desc === "") return `removed the description of ${link()}.`;
    return `changed the description of ${link()} from\n${quote(oldDesc)}\nto\n${quote(desc ?? "")}`;
  }
  const oldDue = field(old, "due");
  if (oldDue === null) return `set the due date of ${link()} to ${readableDate(card.get("due").str())}.`;
  if (oldDue) {
    const due = field(card, "due");
    if (due === null || due === undefined) return `removed the due date of ${link()}.`;
    return `changed the due date of ${link()} from ${readableDate(oldDue)} to ${readableDate(due)}.`;
  }
  const oldClosed = old.opt("closed");
  const closed = card.opt("closed");
  if (oldClosed.exists() && closed.exists()) {
    if (!oldClosed.bool() && closed.bool()) return `archived card ${link()}.`;
    if (oldClosed.bool() && !closed.bool()) return `restored card ${link()} from the archive.`;
  }
  if (IGNORED_CARD_FIELDS.some((f) => old.opt(f).value !== undefined)) return null;
  return "unsupported";
}

/** The sentence (after the actor's name) for one action; null to ignore it, "unsupported" for an unknown one. */
function describeAction(action: Payload, type: string): string | null | "unsupported" {
  const data = action.get("data");
  switch (type) {
    case "updateCard":
      return cardUpdate(data);
    case "createCard":
      return `created card ${cardLink(data)}.`;
    case "addLabelToCard":
    case "removeLabelFromCard": {
      const label = `the ${data.get("value").str()} label "${data.get("text").str()}"`;
      return type === "addLabelToCard" ? `added ${label} to card ${cardLink(data)}.` : `removed ${label} from card ${cardLink(data)}.`;
    }
    case "addMemberToCard":
      return `added ${action.get("member").get("fullName").str()} to card ${cardLink(data)}.`;
    case "removeMemberFromCard":
      return `removed ${action.get("member").get("fullName").str()} from card ${cardLink(data)}.`;
    case "addAttachmentToCard": {
      const attachment = data.get("attachment");
      return `attached [${attachment.get("name").str()}](${attachment.get("url").str()}) to card ${cardLink(data)}.`;
    }
    case "addChecklistToCard":
      return `added checklist **${data.get("checklist").get("name").str()}** to card ${cardLink(data)}.`;
    case "commentCard":
      return `commented on card ${cardLink(data)}:\n${quote(data.get("text").str())}`;
    case "updateCheckItemStateOnCard": {
      const item = data.get("checkItem");
      const verb = item.get("state").str() === "complete" ? "checked" : "unchecked";
      return `${verb} **${item.get("name").str()}** in checklist **${data.get("checklist").get("name").str()}** of card ${cardLink(data)}.`;
    }
    case "addMemberToBoard":
      return `added ${action.get("member").get("fullName").str()} to board ${boardLink(data)}.`;
    case "removeMemberFromBoard":
      return `removed ${action.get("member").get("fullName").str()} from board ${boardLink(data)}.`;
    case "createList":
      return `created list **${data.get("list").get("name").str()}** on board ${boardLink(data)}.`;
    case "updateBoard": {
      const old = data.get("old");
      // A new background is not news.
      if (old.opt("prefs").exists() && old.get("prefs").opt("background").exists()) return null;
      const oldName = field(old, "name");
      return oldName ? `renamed board "${oldName}" to ${boardLink(data)}.` : "unsupported";
    }
    default:
      return "unsupported";
  }
}

/**
 * Trello (https://zulip.com/integrations/doc/trello; Zulip's
 * `api_trello_webhook`): card actions (created, moved, renamed,
 * description and due date set/changed/removed, archived, reopened,
 * labels, members, attachments, checklists and their items, comments) and
 * board actions (members, new lists, renamed). Topic: the board's name;
 * the message starts with who acted. The event type is Trello's action
 * type. Copies, check-item edits, list updates, card moves within a list,
 * cover changes and board backgrounds are ignored; other actions are
 * unsupported.
 */
export const trelloIntegration: Integration = {
  name: "trello",
  displayName: "Trello",
  handle(request): WebhookResult {
    const payload = jsonPayload(request);
    const action = payload.get("action");
    const type = action.get("type").str();
    if (IGNORED_ACTIONS.includes(type)) return { kind: "ignored", eventType: type };
    const sentence = describeAction(action, type);
    if (sentence === "unsupported") return { kind: "unsupported", eventType: type };
    if (sentence === null) return { kind: "ignored", eventType: type };
    const actor = action.get("memberCreator").opt("fullName").strOr("Someone");
    return singleMessage(type, action.get("data").get("board").get("name").str(), `${actor} ${sentence}`);
  },
};
