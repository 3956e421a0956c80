import type { Config } from "../config.js";
import { lazyMailer, senderAddress, type Mailer } from "./mailer.js";

/**
 * The deployment's mailer: SES v2 in the configured region, from
 * {@link senderAddress}, tagged with `SES_CONFIGURATION_SET`; the SES client
 * and the MIME writer load on the first send ({@link lazyMailer}).
 * @param now the clock stamping each message's `Date`, in milliseconds
 */
export function lazySesMailer(config: Config, now: () => number): Mailer {
  return lazyMailer(async () => {
    const ses = await import("./ses-mailer.js");
    return ses.createSesMailer(ses.createSesClient(config.AWS_REGION), senderAddress(config), config.SES_CONFIGURATION_SET, now);
  });
}
