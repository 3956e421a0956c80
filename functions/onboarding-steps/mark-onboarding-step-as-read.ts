import { doMarkOnboardingStepAsRead } from "../../shared/actions/users/onboarding-steps.js";
import type { Endpoint } from "../../shared/http/context.js";
import { param, parseParams } from "../../shared/http/params.js";

/**
 * `POST /users/me/onboarding_steps` (Zulip's `mark_onboarding_step_as_read`;
 * the steps are https://zulip.com/api/register-queue's `onboarding_steps`):
 * marks one onboarding step as seen.
 */
export const markOnboardingStepAsRead: Endpoint = async (ctx) => {
  const p = parseParams(ctx.params, { onboarding_step: param.string() });
  await doMarkOnboardingStepAsRead(ctx.deps, ctx.realm, ctx.user, p.onboarding_step);
  return {};
};
