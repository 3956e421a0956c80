import { SESv2Client, SendEmailCommand } from "@aws-sdk/client-sesv2";
import { composeRawEmail } from "./compose.js";
import type { Mailer } from "./mailer.js";

/**
 * Sends through Amazon SES's v2 API (`SendEmail` with the raw MIME
 * message), tagged with the configuration set that publishes bounces and
 * complaints when one is configured.
 * @param from the verified sender address (`EMAIL_FROM`)
 * @param configurationSet SES's configuration set name (`SES_CONFIGURATION_SET`)
 */
export function createSesMailer(client: SESv2Client, from: string, configurationSet: string | undefined, now: () => number): Mailer {
  return {
    async send(email) {
      const raw = await composeRawEmail(email, from, new Date(now()));
      await client.send(
        new SendEmailCommand({
          Content: { Raw: { Data: raw } },
          ...(configurationSet ? { ConfigurationSetName: configurationSet } : {}),
        }),
      );
    },
  };
}

/** An SES v2 client for the configured region. */
export function createSesClient(region: string): SESv2Client {
  return new SESv2Client({ region });
}
