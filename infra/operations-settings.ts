import type { Node } from "constructs";

/**
 * Deploy-time settings for watching the service and sharing the account's
 * Lambda concurrency, from CDK context (`cdk.json` or `-c key=value`);
 * docs/deploying.md ("Watching it", "Running many clients") explains each.
 */
export interface OperationsSettings {
  /** An address subscribed (by email) to the alarm topic; unset: no subscription. */
  alarmEmail?: string;
  /**
   * Concurrent executions reserved for the `events` function, i.e. the most
   * clients connected at once; `0` reserves none (the function then shares
   * the account's pool with everything else).
   */
  eventsReservedConcurrency: number;
  /** The most concurrent worker invocations the SQS event source starts (2–1,000). */
  workerMaxConcurrency: number;
  /** Run the `events` function on Lambda Managed Instances instead of per-request Lambda. */
  eventsManagedInstances: boolean;
  /** With Managed Instances: long polls one execution environment (1 vCPU, 2 GB) serves at once. */
  eventsPollsPerEnvironment: number;
  /** With Managed Instances: the most vCPUs the capacity provider may run (bounds the bill). */
  eventsMaxVCpus: number;
}

/** Defaults of {@link OperationsSettings}; the numbers are explained in docs/deploying.md. */
export const OPERATIONS_DEFAULTS: OperationsSettings = {
  alarmEmail: undefined,
  eventsReservedConcurrency: 500,
  workerMaxConcurrency: 20,
  eventsManagedInstances: false,
  eventsPollsPerEnvironment: 256,
  eventsMaxVCpus: 16,
};

/**
 * Reads {@link OperationsSettings} from context; `-c` values arrive as
 * strings, `cdk.json` ones typed.
 * @throws Error naming the key when a value is malformed or out of range
 */
export function operationsSettingsFromContext(node: Node): OperationsSettings {
  const text = (key: string): string | undefined => {
    const value = node.tryGetContext(key) as unknown;
    return value === undefined || value === null || value === "" ? undefined : String(value);
  };
  const integer = (key: string, fallback: number, min: number, max: number): number => {
    const value = text(key);
    if (value === undefined) return fallback;
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max) {
      throw new Error(`Context ${key} must be an integer from ${min} to ${max}, got ${value}`);
    }
    return n;
  };
  const alarmEmail = text("alarmEmail");
  if (alarmEmail !== undefined && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(alarmEmail)) {
    throw new Error(`Context alarmEmail must be an email address, got ${alarmEmail}`);
  }
  const managed = text("eventsManagedInstances");
  if (managed !== undefined && managed !== "true" && managed !== "false") {
    throw new Error(`Context eventsManagedInstances must be true or false, got ${managed}`);
  }
  const d = OPERATIONS_DEFAULTS;
  return {
    alarmEmail,
    // Lambda keeps 100 of the account's quota unreserved; the largest quotas are in the tens of thousands.
    eventsReservedConcurrency: integer("eventsReservedConcurrency", d.eventsReservedConcurrency, 0, 100_000),
    // The SQS event source's own bounds.
    workerMaxConcurrency: integer("workerMaxConcurrency", d.workerMaxConcurrency, 2, 1000),
    eventsManagedInstances: managed === "true",
    // Lambda's bounds for PerExecutionEnvironmentMaxConcurrency.
    eventsPollsPerEnvironment: integer("eventsPollsPerEnvironment", d.eventsPollsPerEnvironment, 1, 1600),
    // Lambda's bounds for a capacity provider's MaxVCpuCount.
    eventsMaxVCpus: integer("eventsMaxVCpus", d.eventsMaxVCpus, 12, 15_000),
  };
}
