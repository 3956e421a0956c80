import { randomUUID } from "node:crypto";
import type { FilesDeps } from "../../shared/deps.js";
import { INCOMING_EMAIL_PREFIX } from "../../shared/actions/email-gateway/process-email.js";

/**
 * The local stack's stand-in for SES receiving: `POST` a raw email (the
 * `.eml` file's bytes as the body) to this path of the local server and
 * it is stored and processed exactly as SES's S3 action and the bucket's
 * EventBridge rule do on AWS. Served by the adapter before route matching,
 * never by the route table, so no deployed stack has it:
 *
 * ```sh
 * curl --data-binary @mail.eml http://127.0.0.1:9991/local/incoming-email
 * ```
 */
export const LOCAL_INCOMING_EMAIL_PATH = "/local/incoming-email";

/**
 * Stores a raw email in the files bucket under the gateway's prefix (as
 * SES's S3 action does) and enqueues its `incoming_email` job (as the
 * EventBridge rule does); the stack's consumer runs it.
 * @returns the object's key (a fresh UUID under the prefix)
 */
export async function deliverLocalEmail(deps: FilesDeps, raw: Uint8Array): Promise<{ key: string }> {
  const key = `${INCOMING_EMAIL_PREFIX}local-${randomUUID()}`;
  await deps.files.put(key, raw, { contentType: "message/rfc822" });
  await deps.deferred.enqueue([{ kind: "incoming_email", payload: { key } }]);
  return { key };
}
