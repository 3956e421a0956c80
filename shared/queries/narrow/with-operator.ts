import type { Deps } from "../../deps.js";
import { accessMessage } from "../../access/message.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";

import { JsonableError } from "../../errors.js";
import { BadNarrowOperatorError, type NarrowTerm } from "../../narrow/terms.js";

/**
 * The `with` operator (Zulip feature level 271; "Construct a narrow"): a
 * link to a message that keeps working after the message moved. The
 * narrow's conversation terms are replaced by the conversation the message
 * is in now.
 */

/** Zulip's `Invalid narrow operator combination: <desc>` (code `BAD_NARROW`). */
export class InvalidOperatorCombinationError extends JsonableError {
  constructor(desc: string) {
    super(`Invalid narrow operator combination: ${desc}`, { code: "BAD_NARROW", data: { desc } });
  }
}

const CONVERSATION_OPERATORS = new Set(["stream", "topic", "dm"]);

/** Whether the terms name one conversation by themselves: a `dm`, or a stream and a topic. */
function definesConversation(terms: NarrowTerm[]): boolean {
  if (terms.some((t) => t.operator === "dm")) return true;
  return terms.some((t) => t.operator === "stream") && terms.some((t) => t.operator === "topic");
}

/**
 * Replaces a `with:<message_id>` term (Zulip's
 * `update_narrow_terms_containing_with_operator`): when the viewer can see
 * the message, every `stream`/`topic`/`dm` term gives way to the message's
 * conversation (`stream` + `topic`, or `dm` with the other participants),
 * the other terms stay; when they cannot, the narrow stands without the
 * `with` term if it names a conversation itself.
 *
 * Cost: nothing without a `with` term; else the message and the viewer's
 * row (one BatchGet, plus one round for a stream message without a row).
 * @throws InvalidOperatorCombinationError `Duplicate 'with' operators.`
 * @throws BadNarrowOperatorError `Invalid 'with' operator` for an invisible message and a narrow that names no conversation
 */
export async function applyWithOperator(
  deps: Pick<Deps, "db" | "table">,
  realm: RealmRecord,
  viewer: UserRecord,
  terms: NarrowTerm[],
): Promise<NarrowTerm[]> {
  const withTerms = terms.filter((t) => t.operator === "with");
  if (withTerms.length === 0) return terms;
  if (withTerms.length > 1) throw new InvalidOperatorCombinationError("Duplicate 'with' operators.");
  const rest = terms.filter((t) => t.operator !== "with");
  let message;
  try {
    ({ message } = await accessMessage(deps, realm, viewer, Number(withTerms[0]!.operand)));
  } catch (err) {
    if (!(err instanceof JsonableError)) throw err;
    if (definesConversation(rest)) return rest;
    throw new BadNarrowOperatorError("Invalid 'with' operator");
  }
  const others = rest.filter((t) => !CONVERSATION_OPERATORS.has(t.operator));
  if (message.recipient_type === "stream") {
    return [
      { operator: "stream", operand: message.stream_id!, negated: false },
      { operator: "topic", operand: message.topic, negated: false },
      ...others,
    ];
  }
  const participants = (message.display_recipient as { id: number }[]).map((u) => u.id);
  const othersInConversation = participants.filter((id) => id !== viewer.user_id);
  return [{ operator: "dm", operand: othersInConversation.length > 0 ? othersInConversation : [viewer.user_id], negated: false }, ...others];
}
