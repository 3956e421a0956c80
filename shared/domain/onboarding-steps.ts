/**
 * Onboarding steps (https://zulip.com/api/register-queue, `onboarding_steps`;
 * Zulip's `zerver/lib/onboarding_steps.py`): one-time notices the web app
 * shows a user once. The server lists those the user has not marked as seen.
 * Only the step the API documents exists here; Zulip removed the `hotspot`
 * type (feature level 259), so the legacy `hotspots` list is always empty.
 */

/** One onboarding step as clients see it (OpenAPI `OnboardingStep`). */
export interface OnboardingStep {
  type: "one_time_notice";
  name: string;
}

/** Every onboarding step, in the order clients get them (Zulip's `ONE_TIME_NOTICES`). */
export const ONBOARDING_STEPS: readonly OnboardingStep[] = [{ type: "one_time_notice", name: "visibility_policy_banner" }];

/** Whether `name` is an onboarding step (Zulip's `ALL_ONBOARDING_STEPS` check). */
export function isOnboardingStep(name: string): boolean {
  return ONBOARDING_STEPS.some((step) => step.name === name);
}

/**
 * Zulip's `get_next_onboarding_steps`: the steps a user has not seen yet.
 * @param seen names the user marked as seen
 */
export function nextOnboardingSteps(seen: ReadonlySet<string> | undefined): OnboardingStep[] {
  return ONBOARDING_STEPS.filter((step) => !seen?.has(step.name)).map((step) => ({ ...step }));
}
