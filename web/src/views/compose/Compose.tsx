import { useState } from "preact/hooks";
import type { ApiClient } from "../../api/client.js";
import type { ComposePerson, ComposeStream, ComposeTarget } from "./types.js";

/** Props of {@link Compose}. */
export interface ComposeProps {
  api: ApiClient;
  people: ComposePerson[];
  streams: ComposeStream[];
  /** Where a new message goes by default (the narrow's stream/topic or conversation); null: the person picks. */
  target: ComposeTarget | null;
  /** Sends (the caller shows it at once with a local_id and posts it); rejects with an ApiError to show. */
  onSend(target: ComposeTarget, content: string): Promise<void>;
  /** Enter sends (otherwise Ctrl+Enter sends and Enter starts a new line). */
  enterSends: boolean;
}

/** The compose box: stream and topic or direct-message recipients, the message, Send. */
export function Compose(props: ComposeProps) {
  const [content, setContent] = useState("");
  const [error, setError] = useState<string | null>(null);
  const target = props.target;
  return (
    <form
      onSubmit={async (e) => {
        e.preventDefault();
        if (!target) return;
        try {
          await props.onSend(target, content);
          setContent("");
          setError(null);
        } catch (err) {
          setError(err instanceof Error ? err.message : String(err));
        }
      }}
    >
      <textarea aria-label="Message" value={content} onInput={(e) => setContent(e.currentTarget.value)} />
      {error && <p role="alert">{error}</p>}
      <button type="submit">Send</button>
    </form>
  );
}
