import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: [
      "test/**/*.test.ts",
      "shared/**/*.test.ts",
      "functions/**/*.test.ts",
      "infra/**/*.test.ts",
      "scripts/**/*.test.ts",
    ],
    globalSetup: ["test/support/global-setup.ts"],
    reporters: ["default", "./test/support/summary-reporter.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Two cores: more workers only contend with DynamoDB Local's JVM.
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    // The AWS SDK warns once per process on Node 20; Node 20 is what this project supports.
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true" },
  },
});
