import { Annotations, CfnOutput, Duration, RemovalPolicy, SecretValue, Stack, Tags, type StackProps } from "aws-cdk-lib";
import type { CfnFunction } from "aws-cdk-lib/aws-lambda";
import { SqsEventSource } from "aws-cdk-lib/aws-lambda-event-sources";
import { Secret } from "aws-cdk-lib/aws-secretsmanager";
import { NagSuppressions } from "cdk-nag";
import type { Construct } from "constructs";
import { GROUPS, type Group } from "../shared/routes.js";
import { ChatApi } from "./constructs/http-api.js";
import { ChatTable, DeferredQueue } from "./constructs/data.js";
import { DailyJob } from "./constructs/daily-job.js";
import { DEMO_SWEEP_JOB } from "../shared/actions/realms/demo-organizations.js";
import { SWEEP_UNCLAIMED_ATTACHMENTS_JOB } from "../shared/actions/uploads/sweep.js";
import { FilesBucket } from "./constructs/files.js";
import { MailReceiving } from "./constructs/mail-receiving.js";
import { MailSending } from "./constructs/mail.js";
import { ManagedEventsCapacity } from "./constructs/managed-events.js";
import { PushNotifications } from "./constructs/push-notifications.js";
import { ServiceMonitoring } from "./constructs/monitoring.js";
import { planEventsConcurrency, type EventsConcurrencyPlan } from "./concurrency.js";
import { emailFromAddress, parseDeployConfig, type DeployConfig } from "./deploy-config.js";
import { SharpLayer } from "./constructs/sharp-layer.js";
import { addNagSuppressions } from "./constructs/nag-suppressions.js";
import { ServiceFunction, type ServiceFunctionProps } from "./constructs/service-function.js";
import { FUNCTION_MEMORY_MB } from "./function-memory.js";
import { FUNCTION_BUNDLES, SHARP_MODULE, WEB_DIST, type FunctionFolder } from "./bundling.js";

/**
 * API Gateway allows 30 s for an integration; 29 s leaves it time to relay
 * the Lambda's answer. The `events` long poll waits about 20 s of it.
 */
const API_TIMEOUT = Duration.seconds(29);

/**
 * The worker's timeout. Deferred jobs are fan-outs and bulk updates in
 * chunks, well under a minute each; a shorter timeout keeps the queue's
 * visibility timeout (6×) short, so a failed job is retried after 12
 * minutes rather than half an hour.
 */
export const WORKER_TIMEOUT = Duration.minutes(2);

/**
 * The whole service in one env-agnostic stack (no account or region
 * lookups): the HTTP API, one Lambda per endpoint group plus the fallback
 * and the deferred-work worker, the DynamoDB table and the SQS queue.
 * Its settings come from the operator's settings file
 * (infra/deploy-config.ts); the stack reads no context of its own.
 */
export class ZulipStack extends Stack {
  readonly table: ChatTable;
  readonly deferred: DeferredQueue;
  readonly api: ChatApi;
  readonly groupFunctions: Record<Group, ServiceFunction>;
  readonly fallbackFunction: ServiceFunction;
  readonly workerFunction: ServiceFunction;
  readonly demoSweep: DailyJob;
  /** The daily schedule of the unclaimed-upload sweep job. */
  readonly attachmentSweep: DailyJob;
  readonly files: FilesBucket;
  /** SES sending, only with the `email` setting. */
  readonly mail?: MailSending;
  readonly monitoring: ServiceMonitoring;
  /** Only with the `eventsManagedInstances` opt-in. */
  readonly managedEvents?: ManagedEventsCapacity;
  /** Only with the `incomingEmail` setting: SES receiving for the email gateway. */
  readonly mailReceiving?: MailReceiving;
  /** Only with the `pushNotifications` setting: the service's secret, environment and daily upload. */
  readonly pushNotifications?: PushNotifications;
  /** The settings the stack was built from (every default applied). */
  readonly config: DeployConfig;
  /** The events function's reservation (none on Managed Instances). */
  readonly eventsConcurrency: EventsConcurrencyPlan;

  /**
   * @param props.config the operator's settings; default: every default (`parseDeployConfig({})`)
   * @param props.webDist the built web app the `web` function serves; default: this checkout's `web/dist`
   *   (`npm run build:web`). Bundling fails without its `index.html`; a synthesis that skips bundling does not read it.
   */
  constructor(scope: Construct, id: string, props: StackProps & { config?: DeployConfig; webDist?: string } = {}) {
    super(scope, id, { description: "Zulip-compatible team chat server", ...props });
    const config = props.config ?? parseDeployConfig({});
    this.config = config;
    // Recorded in the template, so that a lost settings file can be rewritten from the deployed stack
    // (`aws cloudformation get-template-summary`, docs/deploying.md "Settings").
    this.templateOptions.metadata = { ZulipDeployConfig: config };
    const removalPolicy = config.destroyOnRemoval ? RemovalPolicy.DESTROY : RemovalPolicy.RETAIN;
    Tags.of(this).add("application", "zulip-serverless");

    this.table = new ChatTable(this, "Data", { removalPolicy, existingTableName: config.existingTableName });
    this.deferred = new DeferredQueue(this, "Deferred", { workerTimeout: WORKER_TIMEOUT, removalPolicy });
    const table = this.table.table;
    const queue = this.deferred.queue;
    this.files = new FilesBucket(this, "Files", { removalPolicy });

    const environment = {
      TABLE_NAME: table.tableName,
      DEFERRED_QUEUE_URL: queue.queueUrl,
      URL_SCHEME: "https",
      LOG_LEVEL: config.logLevel,
      ...(config.incomingEmail ? { EMAIL_GATEWAY_DOMAIN: config.incomingEmail.domain } : {}),
      ...Object.fromEntries(Object.entries(config.rateLimits).map(([name, value]) => [name, String(value)])),
    };
    type FunctionSpec = Pick<ServiceFunctionProps, "folder" | "description" | "memorySize" | "timeout" | "layers" | "siteDir">;
    // sharp's native build for the functions that decode images (shared/images/): the files
    // group (avatars, emoji, on-demand thumbnails) and the worker (upload thumbnails).
    const sharp = new SharpLayer(this, "Sharp");
    const imageModules = (folder: FunctionFolder) =>
      FUNCTION_BUNDLES[folder].externalModules.includes(SHARP_MODULE) ? { layers: [sharp.layer] } : {};
    const serviceFunction = (id: string, spec: FunctionSpec, more: Record<string, string> = {}) =>
      new ServiceFunction(this, id, { ...spec, environment: { ...environment, ...more }, logRemovalPolicy: removalPolicy });
    const videoCalls = config.bigBlueButton ? bigBlueButtonEnvironment(config.bigBlueButton) : {};

    this.groupFunctions = perGroup((group) =>
      // Lambda cannot take a function off a capacity provider: the Managed Instances opt-in gets an
      // events function of its own ID, so switching either way replaces the function.
      serviceFunction(group === "events" && config.eventsManagedInstances ? "EventsManagedApi" : `${pascal(group)}Api`, {
        folder: group,
        description: group === "web" ? "Zulip web app: the page at / and its files at /static/app/" : `Zulip API: ${group} endpoints`,
        memorySize: FUNCTION_MEMORY_MB[group],
        timeout: API_TIMEOUT,
        ...imageModules(group),
        ...(group === "web" ? { siteDir: props.webDist ?? WEB_DIST } : {}),
      }, VIDEO_CALL_GROUPS.includes(group) ? videoCalls : {}),
    );
    this.fallbackFunction = serviceFunction("FallbackApi", {
      folder: "fallback",
      description: "Zulip API: 404/405 for unrouted requests",
      memorySize: FUNCTION_MEMORY_MB.fallback,
      timeout: API_TIMEOUT,
    });
    this.workerFunction = serviceFunction("Worker", {
      folder: "worker",
      description: "Deferred work from the SQS queue",
      memorySize: FUNCTION_MEMORY_MB.worker,
      timeout: WORKER_TIMEOUT,
      ...imageModules("worker"),
    });
    const allFunctions = [...Object.values(this.groupFunctions), this.fallbackFunction, this.workerFunction];

    // Least privilege: every API group reads and writes the table and may
    // defer work; the fallback and the web app's files touch nothing; the
    // worker consumes the queue, writes the table, and may enqueue follow-up chunks.
    for (const group of GROUPS.filter((g) => g !== "web")) {
      this.table.grantReadWriteItems(this.groupFunctions[group].fn);
      queue.grantSendMessages(this.groupFunctions[group].fn);
    }
    // Files: the group that serves them and the worker (deleting what deleted
    // messages and organizations claimed, the unclaimed-upload sweep); no other function.
    for (const fn of [this.groupFunctions.files, this.workerFunction]) {
      this.files.grantObjectReadWrite(fn.role);
      fn.fn.addEnvironment("FILES_BUCKET", this.files.bucket.bucketName);
    }
    // The camo key (shared/camo.ts): generated once by Secrets Manager and kept across deploys. The
    // functions that render messages sign external image URLs with it and the files group checks
    // them at /external_content/; CloudFormation resolves the value at deploy time, so the template
    // holds only a reference to the secret.
    const camoKey = new Secret(this, "CamoKey", {
      description: "Key signing external image URLs for the /external_content/ proxy",
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
      removalPolicy: RemovalPolicy.RETAIN,
    });
    NagSuppressions.addResourceSuppressions(camoKey, [
      {
        id: "AwsSolutions-SMG4",
        reason: "The camo key signs the image URLs stored in rendered messages; rotating it would break every stored preview",
      },
    ]);
    for (const group of GROUPS.filter((g) => g !== "web")) {
      this.groupFunctions[group].fn.addEnvironment("CAMO_KEY", camoKey.secretValue.unsafeUnwrap());
    }
    this.workerFunction.fn.addEnvironment("CAMO_KEY", camoKey.secretValue.unsafeUnwrap());
    this.table.grantReadWriteItems(this.workerFunction.fn);
    queue.grantSendMessages(this.workerFunction.fn);
    this.workerFunction.fn.addEventSource(
      new SqsEventSource(queue, {
        batchSize: 10,
        reportBatchItemFailures: true,
        maxConcurrency: config.workerMaxConcurrency,
      }),
    );
    // Incoming email (the email gateway): SES stores it in the files bucket, EventBridge queues its job.
    if (config.incomingEmail) {
      this.mailReceiving = new MailReceiving(this, "MailReceiving", {
        domain: config.incomingEmail.domain,
        bucket: this.files.bucket,
        queue,
        activate: config.incomingEmail.activateRuleSet,
      });
    }
    // The daily sweeps: expired demo organizations (`delete_realm` jobs follow)
    // and uploads no message has claimed for five weeks.
    this.demoSweep = new DailyJob(this, "DemoSweep", {
      queue,
      job: DEMO_SWEEP_JOB,
      description: "Daily sweep deleting demo organizations past their scheduled deletion date",
      hour: 3,
      minute: 17,
    });
    this.attachmentSweep = new DailyJob(this, "AttachmentSweep", {
      queue,
      job: SWEEP_UNCLAIMED_ATTACHMENTS_JOB,
      description: "Daily sweep deleting uploads no message has claimed for five weeks",
      hour: 3,
      minute: 47,
    });
    // Mobile push notifications (docs/deploying.md): the worker sends and uploads, `presence` registers
    // devices, `unauthenticated` says in /server_settings whether pushes are configured; `messages`
    // (edits and deletions clear notifications from phones) only needs to know that they are in use.
    if (config.pushNotifications) {
      this.pushNotifications = new PushNotifications(this, "PushNotifications", {
        ...config.pushNotifications,
        queue,
        functions: [this.workerFunction.fn, this.groupFunctions.presence.fn, this.groupFunctions.unauthenticated.fn],
        clearingFunctions: [this.groupFunctions.messages.fn],
      });
    }

    // Mail (docs/deploying.md, "Email"): with the `email` setting the worker, which alone sends mail,
    // may send as the domain through the configuration set; without it the worker drops each email.
    if (config.email) {
      const fromAddress = emailFromAddress(config.email);
      this.mail = new MailSending(this, "Mail", { domain: config.email.domain, fromAddress, queue, removalPolicy });
      this.mail.grantSend(this.workerFunction.fn);
      this.workerFunction.fn.addEnvironment("EMAIL_FROM", fromAddress);
      this.workerFunction.fn.addEnvironment("SES_CONFIGURATION_SET", this.mail.configurationSet.configurationSetName);
    }

    // docs/deploying.md, "Concurrency" and "Running many clients": each connected client holds one
    // events execution, so the events function gets a reservation of its own (or Managed Instances,
    // where one environment holds many polls) and the worker a cap; the rest of the account's quota
    // stays shared by the other functions.
    const events = this.groupFunctions.events.fn;
    this.eventsConcurrency = config.eventsManagedInstances
      ? { reserved: 0, source: "managed-instances" }
      : planEventsConcurrency(config);
    if (this.eventsConcurrency.warning) Annotations.of(this).addWarningV2("zulip:eventsConcurrency", this.eventsConcurrency.warning);
    if (config.eventsManagedInstances) {
      this.managedEvents = new ManagedEventsCapacity(this, "ManagedEvents", {
        fn: events,
        pollsPerEnvironment: config.eventsPollsPerEnvironment,
        maxVCpus: config.eventsMaxVCpus,
      });
    } else if (this.eventsConcurrency.reserved > 0) {
      (events.node.defaultChild as CfnFunction).reservedConcurrentExecutions = this.eventsConcurrency.reserved;
    }
    const eventsTarget = this.managedEvents?.alias ?? events;

    this.api = new ChatApi(this, "Api", {
      groupFunctions: perGroup((group) => (group === "events" ? eventsTarget : this.groupFunctions[group].fn)),
      fallbackFunction: this.fallbackFunction.fn,
      rateLimit: config.apiRateLimit,
      burstLimit: config.apiBurstLimit,
      removalPolicy,
      customDomain:
        config.rootDomain && config.certificateArn
          ? {
              rootDomain: config.rootDomain,
              certificateArn: config.certificateArn,
              orgSubdomains: config.orgSubdomains,
            }
          : undefined,
    });

    // Without a configured domain, the API's own host is the default
    // organization's. It is a reference to the API, which does not depend on
    // the functions (integrations and routes do), so there is no cycle.
    const rootDomain = config.rootDomain ?? this.api.executeApiHost;
    for (const fn of allFunctions) fn.fn.addEnvironment("ROOT_DOMAIN", rootDomain);

    new CfnOutput(this, "ApiUrl", { value: this.api.stage.url, description: "Zulip server URL (execute-api host)" });
    new CfnOutput(this, "RootDomain", { value: rootDomain, description: "ROOT_DOMAIN: default organization's host" });
    new CfnOutput(this, "TableName", { value: table.tableName, description: "DynamoDB table (TABLE_NAME for manage)" });
    new CfnOutput(this, "DeferredQueueUrl", { value: queue.queueUrl, description: "SQS queue of deferred work" });
    new CfnOutput(this, "DeadLetterQueueUrl", {
      value: this.deferred.deadLetterQueue.queueUrl,
      description: "Deferred jobs that failed repeatedly",
    });
    this.api.domainNames.forEach((domain, i) => {
      new CfnOutput(this, i === 0 ? "RootDomainTarget" : "OrgSubdomainsTarget", {
        value: domain.regionalDomainName,
        description: `CNAME (or alias) target for ${this.api.domainHosts[i]}`,
      });
    });

    this.monitoring = new ServiceMonitoring(this, "Monitoring", {
      api: this.api.api,
      functions: {
        ...perGroup((group) => this.groupFunctions[group].fn),
        fallback: this.fallbackFunction.fn,
        worker: this.workerFunction.fn,
      },
      eventsFunction: events,
      eventsReservedConcurrency: this.eventsConcurrency.reserved,
      queue,
      deadLetterQueue: this.deferred.deadLetterQueue,
      table,
      alarmEmail: config.alarmEmail,
    });

    addNagSuppressions({ api: this.api, functions: allFunctions });
  }
}

/**
 * The groups told the BigBlueButton server: `realm` serves the call links
 * (`/calls/bigbluebutton/...`) and `PATCH /realm`, `events` lists the
 * available providers in `POST /register`. The others never see its secret.
 */
const VIDEO_CALL_GROUPS: readonly Group[] = ["realm", "events"];

/**
 * `BIGBLUEBUTTON_URL` and `BIGBLUEBUTTON_SECRET` (shared/config.ts) of the
 * `bigBlueButton` setting. The secret is a CloudFormation dynamic reference
 * (`{{resolve:secretsmanager:…}}`), resolved at deploy time: the template,
 * the cloud assembly and the settings file hold only the secret's name.
 */
function bigBlueButtonEnvironment(server: NonNullable<DeployConfig["bigBlueButton"]>): Record<string, string> {
  return {
    BIGBLUEBUTTON_URL: server.url,
    BIGBLUEBUTTON_SECRET: SecretValue.secretsManager(server.secretName).unsafeUnwrap(),
  };
}

/** A record with one entry per endpoint group. */
function perGroup<T>(make: (group: Group) => T): Record<Group, T> {
  return Object.fromEntries(GROUPS.map((group) => [group, make(group)])) as Record<Group, T>;
}

function pascal(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}
