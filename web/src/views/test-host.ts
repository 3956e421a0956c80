import { render } from "preact";
import { afterEach, beforeEach } from "vitest";

/**
 * For component tests under happy-dom: a fresh element in the document for
 * each test, with whatever was rendered into it unmounted after the test.
 * @returns the current test's element (call it inside a test)
 */
export function useRenderHost(): () => HTMLElement {
  let host: HTMLElement | undefined;
  beforeEach(() => {
    host = document.createElement("div");
    document.body.append(host);
  });
  afterEach(() => {
    render(null, host!);
    host!.remove();
  });
  return () => host!;
}
