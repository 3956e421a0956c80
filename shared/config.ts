import { z } from "zod";

/**
 * Runtime configuration, read from the environment once per process
 * (Lambda cold start or local server start) and checked with zod.
 *
 * Nothing else in the code base reads `process.env`; everything receives a
 * {@link Config} through its dependencies, so tests can pass their own.
 */
const ConfigSchema = z.object({
  /** DynamoDB table holding every item of the service. */
  TABLE_NAME: z.string().min(1).default("zulip"),
  /** AWS region of the table and queues. */
  AWS_REGION: z.string().min(1).default("us-east-1"),
  /** Override endpoint (DynamoDB Local); unset on AWS. */
  DYNAMODB_ENDPOINT: z.string().url().optional(),
  /**
   * SQS queue URL of the deferred-work queue (`shared/deferred/`). Unset,
   * every enqueue fails with an error (unit tests without a queue); no work
   * runs inline instead.
   */
  DEFERRED_QUEUE_URL: z.string().optional(),
  /** Override endpoint for SQS (a local emulator); unset on AWS. */
  SQS_ENDPOINT: z.string().url().optional(),
  /**
   * S3 bucket of uploaded files, avatars, custom emoji and organization images
   * (`shared/storage/`). Unset (unit tests), every file operation fails.
   */
  FILES_BUCKET: z.string().optional(),
  /** Override endpoint for S3 (the local emulator, path-style URLs); unset on AWS. */
  S3_ENDPOINT: z.string().url().optional(),
  /**
   * The function role's temporary credentials, which Lambda puts in the
   * environment: the file store signs its S3 requests with them (the AWS
   * SDK's clients read the same variables themselves). Unset locally, where
   * the S3 emulator at `S3_ENDPOINT` takes any.
   */
  AWS_ACCESS_KEY_ID: z.string().min(1).optional(),
  AWS_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  AWS_SESSION_TOKEN: z.string().min(1).optional(),
  /**
   * Largest file `POST /user_uploads` accepts, in MiB (`max_file_upload_size_mib`
   * in register and `/server_settings`). A Lambda request payload is at most
   * 6 MB and API Gateway sends a multipart body base64-encoded (4 bytes per 3),
   * so 4 MiB (5.33 MiB encoded, plus the multipart framing and headers) is the
   * largest whole number that always fits.
   */
  MAX_FILE_UPLOAD_SIZE_MIB: z.coerce.number().int().min(1).max(4).default(4),
  /**
   * The host that serves the default organization (subdomain `""`), without
   * scheme, for example `chat.example.com` or `127.0.0.1:9991`. Any other host
   * `<sub>.<ROOT_DOMAIN>` serves the organization with that subdomain; a
   * host outside it is refused with 400, as Zulip refuses hosts it does not
   * serve.
   */
  ROOT_DOMAIN: z.string().min(1).default("127.0.0.1:9991"),
  /** The server administrator's address, named where Zulip names it (a refused data export asks for a manual one from there). */
  ZULIP_ADMINISTRATOR: z.string().min(1).default("zulip-admin@example.com"),
  /**
   * The domain of the incoming-email gateway: a stream's address is
   * `<slug>.<token>.show-sender@<EMAIL_GATEWAY_DOMAIN>` (Zulip's
   * `EMAIL_GATEWAY_PATTERN` `%s@<domain>`). Unset: the host name of
   * {@link ROOT_DOMAIN} (its port left out). Mail there is received by SES
   * (the `incomingEmail` deploy setting sets this) and posted by the
   * `incoming_email` job (docs/deploying.md, "Incoming email").
   */
  EMAIL_GATEWAY_DOMAIN: z.string().min(1).optional(),
  /**
   * `POST /streams/{stream_id}/delete_topic` deletes a topic's messages in
   * batches of this many (Zulip's `RETENTION_STREAM_MESSAGE_BATCH_SIZE`).
   */
  DELETE_TOPIC_BATCH_SIZE: z.coerce.number().int().min(1).max(1000).default(100),
  /**
   * After one batch, further batches start only within this many
   * milliseconds of the request's start; then the answer is
   * `{"complete": false}` and the client asks again (Zulip waits 50 s;
   * API Gateway gives up on a Lambda after 30 s).
   */
  DELETE_TOPIC_TIME_BUDGET_MS: z.coerce.number().int().min(0).default(15_000),
  /** Scheme of the public URL: `https` on AWS, `http` locally. */
  URL_SCHEME: z.enum(["http", "https"]).default("https"),
  /**
   * The camo key (`shared/camo.ts`): with it, external images in messages
   * are previewed through this server's `/external_content/…` proxy,
   * signed with it. On AWS the stack's generated secret; locally a key the
   * local stack generates. Unset: external images are not proxied (their
   * previews load from the original host) and the proxy answers 404.
   */
  CAMO_KEY: z.string().min(16).optional(),
  /** Log level of the request logger. */
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  /**
   * How long `GET /events` holds a request open without events before it
   * answers with a heartbeat, in milliseconds (docs/events.md). Safely
   * below API Gateway's 30-second integration timeout.
   */
  LONGPOLL_HOLD_MS: z.coerce.number().int().positive().default(20_000),
  /**
   * How long a long poll waits between re-reads of the event logs, in
   * milliseconds. On AWS nothing can wake a waiting Lambda, so it re-reads
   * every second (the latency floor and the idle read cost, docs/events.md);
   * the local stack wakes waiters in-process and re-reads only as a safety net.
   */
  LONGPOLL_RECHECK_MS: z.coerce.number().int().positive().default(1000),
  /**
   * How often `npm start` runs the demo-organization sweep, in seconds
   * (0: never). On AWS an EventBridge schedule runs it daily instead.
   */
  DEMO_SWEEP_INTERVAL_SECONDS: z.coerce.number().int().min(0).default(3600),
  /**
   * Most bytes a response body may take inside Lambda's response payload
   * (the body travels there as a JSON string, so as escaped UTF-8, and as
   * base64 when compressed). Lambda refuses payloads over 6 MB; 5 MiB
   * leaves room for the status, the headers and the escaping the budget
   * does not see. `GET /messages` returns fewer messages rather than exceed
   * it (`shared/domain/response-budget.ts`). Tests lower it to reach it
   * with little data.
   */
  RESPONSE_BYTE_BUDGET: z.coerce.number().int().min(16 * 1024).max(6 * 1024 * 1024).default(5 * 1024 * 1024),
  /**
   * `off` turns every rate limit off (load tests, benchmarks, bulk imports,
   * the end-to-end suite), as Zulip's `RATE_LIMITING = False` does; any
   * other deployment keeps them `on` (docs/deploying.md, "Rate limits").
   */
  RATE_LIMITS: z.enum(["on", "off"]).default("on"),
  /** Requests one user may make per window (Zulip's `api_by_user`: 200 per 60 s). */
  RATE_LIMIT_USER_REQUESTS: z.coerce.number().int().positive().default(200),
  /** Window of {@link RATE_LIMIT_USER_REQUESTS}, in seconds. */
  RATE_LIMIT_USER_WINDOW_SECONDS: z.coerce.number().int().positive().default(60),
  /** Unauthenticated requests one IP address may make per window (Zulip's `api_by_ip`: 100 per 60 s). */
  RATE_LIMIT_IP_REQUESTS: z.coerce.number().int().positive().default(100),
  /** Window of {@link RATE_LIMIT_IP_REQUESTS}, in seconds. */
  RATE_LIMIT_IP_WINDOW_SECONDS: z.coerce.number().int().positive().default(60),
  /** Failed logins allowed per username and window (Zulip's `authenticate_by_username`: 5 per 30 min). */
  RATE_LIMIT_LOGIN_FAILURES: z.coerce.number().int().positive().default(5),
  /** Window of {@link RATE_LIMIT_LOGIN_FAILURES}, in seconds. */
  RATE_LIMIT_LOGIN_WINDOW_SECONDS: z.coerce.number().int().positive().default(1800),
  /**
   * Failed authentications (wrong password, wrong API key) allowed per
   * source IP address and window: past it the address's password sign-ins
   * and wrong keys get 429, so that a password spray over many accounts
   * from one address stops long before each account's own limit would.
   */
  RATE_LIMIT_IP_AUTH_FAILURES: z.coerce.number().int().positive().default(50),
  /** Window of {@link RATE_LIMIT_IP_AUTH_FAILURES}, in seconds. */
  RATE_LIMIT_IP_AUTH_WINDOW_SECONDS: z.coerce.number().int().positive().default(1800),
  /**
   * Requests from one source address that send mail to an address they name
   * (sign-up requests; Zulip's `sends_email_by_ip`: 5 per day).
   */
  RATE_LIMIT_IP_EMAILS: z.coerce.number().int().positive().default(5),
  /** Window of {@link RATE_LIMIT_IP_EMAILS}, in seconds. */
  RATE_LIMIT_IP_EMAILS_WINDOW_SECONDS: z.coerce.number().int().positive().default(86_400),
  /**
   * Cost of a password hash: scrypt's N is 2 to this power (r=8, p=1).
   * 17 is OWASP's recommendation (128 MiB and about 0.3–0.5 s of CPU per
   * hash, so a function that hashes needs at least 256 MB of memory); a
   * stored hash with a lower cost is replaced at the owner's next
   * successful login. Test stacks lower it, as Zulip's test settings use a
   * fast hasher.
   */
  PASSWORD_HASH_LOG2_N: z.coerce.number().int().min(1).max(20).default(17),
  /**
   * Base URL of a BigBlueButton server's API, up to and without `api/`
   * (Zulip's `BIG_BLUE_BUTTON_URL`), for example
   * `https://bbb.example.com/bigbluebutton/`. With
   * {@link BIGBLUEBUTTON_SECRET} it makes BigBlueButton an available video
   * call provider (`shared/domain/video-calls.ts`); unset, joining a call
   * answers "BigBlueButton is not configured.".
   */
  BIGBLUEBUTTON_URL: z.string().url({ protocol: /^https?$/ }).optional(),
  /**
   * The BigBlueButton server's shared secret (Zulip's
   * `BIG_BLUE_BUTTON_SECRET`; `bbb-conf --secret` prints it): it signs the
   * calls to that server and, through a key derived from it, the join
   * links this server hands out. On AWS it comes from Secrets Manager
   * (docs/deploying.md, "Video calls").
   */
  BIGBLUEBUTTON_SECRET: z.string().min(1).optional(),
  /**
   * Zulip's push notification service (Zulip's `PUSH_NOTIFICATION_BOUNCER_URL`,
   * `https://push.zulipchat.com` for the official apps): with
   * {@link ZULIP_ORG_ID} and {@link ZULIP_ORG_KEY} it makes mobile push
   * notifications configured (`shared/push/`, docs/deploying.md "Mobile push
   * notifications"). Unset: devices are still registered, nothing is sent.
   */
  PUSH_NOTIFICATION_BOUNCER_URL: z.string().url().optional(),
  /** This server's registration with the push notification service: a UUID (Zulip's `zulip_org_id`). */
  ZULIP_ORG_ID: z.string().uuid().optional(),
  /** The server's secret key at the push notification service (Zulip's `zulip_org_key`, 64 characters); from Secrets Manager on AWS. */
  ZULIP_ORG_KEY: z.string().min(1).optional(),
  /**
   * The address every email is sent from (Zulip's `NOREPLY_EMAIL_ADDRESS`),
   * on a domain verified in SES. The display name is the organization's.
   * @default `noreply@` the root domain's host
   */
  EMAIL_FROM: z.string().email().optional(),
  /** The SES configuration set that publishes bounces and complaints (docs/deploying.md, "Email"). */
  SES_CONFIGURATION_SET: z.string().min(1).optional(),
  /**
   * The local stack's mailbox: the folder each sent email is written to as
   * an `.eml` file instead of being sent (`npm start` prints it).
   */
  LOCAL_MAIL_DIR: z.string().min(1).optional(),
});

export type Config = z.infer<typeof ConfigSchema>;

/**
 * Parses configuration from an environment-like record.
 * @param env defaults to `process.env`
 * @throws ZodError when a variable is present but malformed (a deploy error, not a client error)
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  return ConfigSchema.parse(env);
}
