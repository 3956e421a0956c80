import { badInputSuite } from "./bad-input-helpers.js";

/**
 * The bad-input pass (see `bad-input-helpers.ts`) over the realm group:
 * one test per route, each bounded by the requests it sends.
 */
badInputSuite("realm");
