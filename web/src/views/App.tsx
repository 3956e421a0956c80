import type { ApiClient } from "../api/client.js";

/** The whole app: the sign-in page until a session exists, then the chat. */
export function App(_props: { api: ApiClient }) {
  return <main>Loading…</main>;
}
