import { Duration, RemovalPolicy } from "aws-cdk-lib";
import * as dynamodb from "aws-cdk-lib/aws-dynamodb";
import * as iam from "aws-cdk-lib/aws-iam";
import * as sqs from "aws-cdk-lib/aws-sqs";
import { Construct } from "constructs";
import { GLOBAL_INDEXES, TABLE_KEYS, TTL_ATTRIBUTE } from "../../shared/data/table.js";

export interface ChatTableProps {
  /** RETAIN for real organizations; DESTROY only for throw-away dev stacks. */
  removalPolicy: RemovalPolicy;
  /**
   * Use this existing table (e.g. one restored from a point-in-time backup)
   * instead of creating one. It must have the keys and indexes of
   * `shared/data/table.ts`; the stack does not manage it (no TTL, backup or
   * deletion settings), docs/deploying.md "Restoring a backup".
   */
  existingTableName?: string;
}

/**
 * The service's single DynamoDB table, built from the one definition in
 * `shared/data/table.ts` (the local stack creates its table from it too):
 * string `pk`/`sk`, the GSIs listed there projecting every attribute, and
 * TTL on `expires_at`.
 *
 * On-demand billing: an idle organization pays only for storage, and a
 * burst (a big stream's fan-out) needs no capacity planning. Point-in-time
 * recovery is on because the table is the organization's entire history.
 * A retained table also gets deletion protection, so deleting the stack (or
 * a mistaken replacement) cannot drop it.
 *
 * With {@link ChatTableProps.existingTableName} the construct creates
 * nothing and refers to that table by name, with the same least-privilege
 * grants.
 */
export class ChatTable extends Construct {
  readonly table: dynamodb.ITable;

  constructor(scope: Construct, id: string, props: ChatTableProps) {
    super(scope, id);
    if (props.existingTableName !== undefined) {
      // The functions use the table and its indexes only (no stream), so the
      // name and the index names are all the grants need.
      this.table = dynamodb.Table.fromTableAttributes(this, "Table", {
        tableName: props.existingTableName,
        globalIndexes: GLOBAL_INDEXES.map((index) => index.name),
      });
      return;
    }
    const key = (name: string): dynamodb.Attribute => ({ name, type: dynamodb.AttributeType.STRING });
    const table = new dynamodb.Table(this, "Table", {
      partitionKey: key(TABLE_KEYS.partitionKey),
      sortKey: key(TABLE_KEYS.sortKey),
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: TTL_ATTRIBUTE,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      // Encrypted at rest with an AWS-owned key: free, unlike per-request KMS charges of a managed key.
      encryption: dynamodb.TableEncryption.DEFAULT,
      removalPolicy: props.removalPolicy,
      deletionProtection: props.removalPolicy === RemovalPolicy.RETAIN,
    });
    this.table = table;
    for (const index of GLOBAL_INDEXES) {
      table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: key(index.partitionKey),
        sortKey: key(index.sortKey),
        projectionType: index.projection === "ALL" ? dynamodb.ProjectionType.ALL : dynamodb.ProjectionType.KEYS_ONLY,
      });
    }
  }

  /**
   * Lets `grantee` read and write items: single-item and batch reads and
   * writes, Query on the table and on each index (named one by one, not
   * `index/*`), and transactions (which IAM authorizes as their Put, Update,
   * Delete and ConditionCheck parts). No Scan (no request path scans), no
   * table management.
   */
  grantReadWriteItems(grantee: iam.IGrantable): iam.Grant {
    return iam.Grant.addToPrincipal({
      grantee,
      actions: ChatTable.ITEM_ACTIONS.map((action) => `dynamodb:${action}`),
      resourceArns: [
        this.table.tableArn,
        ...GLOBAL_INDEXES.map((index) => `${this.table.tableArn}/index/${index.name}`),
      ],
    });
  }

  /** The DynamoDB actions of {@link ChatTable.grantReadWriteItems}. */
  static readonly ITEM_ACTIONS = [
    "GetItem",
    "BatchGetItem",
    "Query",
    "PutItem",
    "UpdateItem",
    "DeleteItem",
    "BatchWriteItem",
    "ConditionCheckItem",
  ] as const;
}

export interface DeferredQueueProps {
  /** Timeout of the worker Lambda consuming the queue; the visibility timeout is six times it. */
  workerTimeout: Duration;
  removalPolicy: RemovalPolicy;
}

/**
 * The SQS queue of deferred work (`shared/deferred/`), with a dead-letter
 * queue. Both are SSE-SQS encrypted and refuse non-TLS requests.
 *
 * The visibility timeout is six times the worker's timeout, as AWS advises
 * for Lambda event sources: the poller may hold a batch while the function
 * is throttled, and a message must not reappear while a worker still runs
 * it. After {@link DeferredQueue.MAX_RECEIVE_COUNT} failed receives a job
 * goes to the dead-letter queue (kept 14 days, SQS's maximum) for inspection
 * and redrive.
 */
export class DeferredQueue extends Construct {
  /** Receives before a job is parked in the dead-letter queue. */
  static readonly MAX_RECEIVE_COUNT = 5;

  readonly queue: sqs.Queue;
  readonly deadLetterQueue: sqs.Queue;

  constructor(scope: Construct, id: string, props: DeferredQueueProps) {
    super(scope, id);
    this.deadLetterQueue = new sqs.Queue(this, "DeadLetterQueue", {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
      removalPolicy: props.removalPolicy,
    });
    this.queue = new sqs.Queue(this, "Queue", {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      visibilityTimeout: Duration.seconds(props.workerTimeout.toSeconds() * 6),
      retentionPeriod: Duration.days(4),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: DeferredQueue.MAX_RECEIVE_COUNT },
      removalPolicy: props.removalPolicy,
    });
  }
}
