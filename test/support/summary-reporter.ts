import type { Reporter } from "vitest/reporters";

interface TaskLike {
  type: string;
  mode?: string;
  result?: { state?: string };
  tasks?: TaskLike[];
}

/**
 * Ends a run with one plain line, `N passed, N failed, N skipped`, after
 * vitest's own summary: the form CI reads to tell a run that tested
 * something from one that ran nothing.
 */
export default class SummaryReporter implements Reporter {
  onFinished(files: TaskLike[] = []): void {
    const count = { passed: 0, failed: 0, skipped: 0 };
    const visit = (task: TaskLike) => {
      if (task.type === "test") {
        if (task.result?.state === "pass") count.passed++;
        else if (task.result?.state === "fail") count.failed++;
        else count.skipped++;
      }
      for (const child of task.tasks ?? []) visit(child);
    };
    for (const file of files) {
      // A file that failed to load has no tests to count: count it as a failure.
      if (file.result?.state === "fail" && (file.tasks ?? []).length === 0) count.failed++;
      visit(file);
    }
    process.stdout.write(`\n${count.passed} passed, ${count.failed} failed, ${count.skipped} skipped\n`);
  }
}
