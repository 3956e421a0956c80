import type { Deps } from "../../deps.js";
import type { RealmRecord } from "../../data/records/realm.js";
import type { UserRecord } from "../../data/records/user.js";
import { addOnboardingStepSeen } from "../../data/users.js";
import { isOnboardingStep, nextOnboardingSteps, type OnboardingStep } from "../../domain/onboarding-steps.js";
import { JsonableError } from "../../errors.js";
import { sendEvent } from "../../events/publish.js";
import { checkHumanUser } from "./update-settings.js";

/**
 * Zulip's event of `do_mark_onboarding_step_as_read`: the `onboarding_steps`
 * event (https://zulip.com/api/get-events#onboarding_steps) with the steps
 * still to show, to the user's own clients.
 */
export async function notifyOnboardingSteps(deps: Deps, userId: number, steps: OnboardingStep[]): Promise<void> {
  await sendEvent(deps, { type: "onboarding_steps", onboarding_steps: steps }, [userId]);
}

/**
 * `POST /users/me/onboarding_steps` (Zulip's `mark_onboarding_step_as_read`
 * in `zerver/views/onboarding_steps.py` and `do_mark_onboarding_step_as_read`):
 * marks one step as seen (again is harmless) and sends the remaining steps
 * to the user's clients. Bots may not call it (`@human_users_only`).
 *
 * Round trips: one UpdateItem (adding to the user item's set of seen steps,
 * which returns the whole set) and the event.
 * @throws HumanUsersOnlyError 400 `This endpoint does not accept bot requests.`
 * @throws JsonableError 400 `Unknown onboarding_step: <name>`
 */
export async function doMarkOnboardingStepAsRead(
  deps: Deps,
  realm: RealmRecord,
  user: UserRecord,
  step: string,
): Promise<void> {
  checkHumanUser(user);
  if (!isOnboardingStep(step)) throw new JsonableError(`Unknown onboarding_step: ${step}`);
  const seen = await addOnboardingStepSeen(deps, realm.id, user.user_id, step);
  if (seen === undefined) throw new Error("mark onboarding step: the caller's user item is gone");
  await notifyOnboardingSteps(deps, user.user_id, nextOnboardingSteps(seen));
}
