import { configDefaults, defineConfig } from "vitest/config";

/**
 * Contract tests that exercise only the validator (no local stack): they
 * belong to the unit project although they live in `test/contract/`.
 */
const PURE_CONTRACT_TESTS = ["validator"];

/**
 * Three projects:
 * - `e2e`: test files that start a local stack (`useTestOrg`), all of
 *   `test/e2e/` and `test/contract/` but {@link PURE_CONTRACT_TESTS}. Only
 *   this project has the global setup, which starts DynamoDB Local.
 * - `unit`: every other test file; none needs DynamoDB (`useTestOrg`
 *   refuses to run without the e2e global setup).
 * - `web`: the web app's own unit tests (`web/src/**`), plain TypeScript and
 *   Preact components compiled with the app's JSX settings.
 * - `browser`: `test/browser/`, people using the built web app in Chromium
 *   against a local stack per file. Its global setup builds `web/dist` when
 *   stale and starts DynamoDB Local as the e2e one does (docs/web.md,
 *   "Browser tests").
 */
export default defineConfig({
  test: {
    reporters: ["default", "./test/support/summary-reporter.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Two cores: more workers only contend with DynamoDB Local's JVM.
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    // The AWS SDK warns once per process on Node 20; Node 20 is what this project supports.
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true" },
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: [
            "shared/**/*.test.ts",
            "functions/**/*.test.ts",
            "infra/**/*.test.ts",
            "scripts/**/*.test.ts",
            "test/**/*.test.ts",
          ],
          exclude: [
            ...configDefaults.exclude,
            "test/e2e/**",
            "test/browser/**",
            `test/contract/**/!(${PURE_CONTRACT_TESTS.join("|")}).test.ts`,
          ],
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts", "test/contract/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...PURE_CONTRACT_TESTS.map((name) => `test/contract/${name}.test.ts`)],
          globalSetup: ["test/support/global-setup.ts"],
        },
      },
      {
        extends: true,
        esbuild: { jsx: "automatic", jsxImportSource: "preact" },
        test: {
          name: "web",
          include: ["web/src/**/*.test.ts", "web/src/**/*.test.tsx"],
        },
      },
      {
        extends: true,
        test: {
          name: "browser",
          include: ["test/browser/**/*.test.ts"],
          globalSetup: ["test/browser/global-setup.ts"],
          // A test is a few people's clicks, each wait bounded by 30 s (test/browser/browser.ts).
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
