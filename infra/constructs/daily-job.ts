import * as events from "aws-cdk-lib/aws-events";
import * as targets from "aws-cdk-lib/aws-events-targets";
import type * as sqs from "aws-cdk-lib/aws-sqs";
import { Construct } from "constructs";
import type { DeferredJob } from "../../shared/deferred/jobs.js";

export interface DailyJobProps {
  /** The deferred-work queue the worker Lambda consumes. */
  queue: sqs.IQueue;
  /** The job the rule puts on the queue, a kind of `functions/worker/jobs.ts`. */
  job: DeferredJob;
  /** What the rule is for (the rule's description). */
  description: string;
  /** Time of day, UTC. */
  hour: number;
  minute: number;
}

/**
 * A daily job (Zulip runs its sweeps from cron): an EventBridge rule that
 * puts one deferred job on the deferred-work queue, so the worker Lambda
 * that runs every other job runs it too. No extra function and no new
 * permission for any function: the queue's resource policy lets EventBridge
 * send to it only on behalf of the rule (`aws:SourceArn`). A missed day only
 * delays the work: each sweep handles everything due by the time it runs.
 */
export class DailyJob extends Construct {
  readonly rule: events.Rule;

  constructor(scope: Construct, id: string, props: DailyJobProps) {
    super(scope, id);
    this.rule = new events.Rule(this, "Daily", {
      description: props.description,
      schedule: events.Schedule.cron({ minute: String(props.minute), hour: String(props.hour) }),
      targets: [new targets.SqsQueue(props.queue, { message: events.RuleTargetInput.fromObject(props.job) })],
    });
  }
}
