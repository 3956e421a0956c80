/**
 * What every Lambda bundle gets for `import { z } from "zod"` (esbuild's
 * `alias`, infra/bundling.ts): zod's classic API without `z.locales` (about
 * 260 KB of messages in 50 languages), `z.core` and the JSON Schema
 * converters, which the service never uses. Zod keeps English messages: its
 * schemas register the English locale themselves.
 *
 * `import { z } from "zod"` makes `z` a namespace object, and a bundler must
 * keep every member of a namespace used as a value; this module's namespace
 * lists only what the service can call. The paths go past zod's `exports`
 * map because these files are not exported one by one; the bundle-size test
 * builds every function through this module, so a zod upgrade that moves
 * them fails there, and a `z.<name>` this module lacks fails the build.
 *
 * Bundling only: the sources, the local server and the tests import zod itself.
 */
import * as z from "./zod-api.js";

export { z };
