import { useEffect, useId, useRef, useState } from "preact/hooks";
import { ErrorNote } from "../ui/ErrorNote.js";
import { errorText, useAction } from "../ui/useAction.js";

/** Props of {@link MessageEditForm}. */
export interface MessageEditFormProps {
  /** Loads the message's Markdown source (`GET /messages/{id}`). */
  loadSource(): Promise<string>;
  /** Saves the new content (`PATCH /messages/{id}`); rejects with the server's refusal. */
  save(content: string): Promise<void>;
  /** Closes the form (after a save, on Cancel or Esc). */
  close(): void;
}

/**
 * A message edited in place (https://zulip.com/help/edit-a-message): a
 * textarea ("Edit message content") with the message's Markdown, "Save" and
 * "Cancel". Esc cancels, Ctrl+Enter (⌘+Enter) saves. A refusal (a time limit
 * passed, editing turned off) shows the server's message in the form, which
 * stays open; an unchanged text just closes it.
 */
export function MessageEditForm(props: MessageEditFormProps) {
  const id = useId();
  const [source, setSource] = useState<string | null>(null);
  const [text, setText] = useState("");
  const [loadError, setLoadError] = useState<string | null>(null);
  const ref = useRef<HTMLTextAreaElement>(null);
  const saving = useAction(async (content: string) => {
    await props.save(content);
  });

  useEffect(() => {
    let live = true;
    props.loadSource().then(
      (raw) => {
        if (!live) return;
        setSource(raw);
        setText(raw);
      },
      (err: unknown) => live && setLoadError(errorText(err)),
    );
    return () => {
      live = false;
    };
  }, []);

  // Focus the text, caret at its end, once it is there.
  useEffect(() => {
    const el = ref.current;
    if (source === null || !el) return;
    el.focus();
    el.setSelectionRange(el.value.length, el.value.length);
  }, [source]);

  const submit = async () => {
    if (source === null) return;
    if (text === source) return props.close();
    if (await saving.run(text)) props.close();
  };

  return (
    <form
      class="message-edit-form"
      noValidate
      onClick={(e) => e.stopPropagation()}
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <label class="visually-hidden" for={`${id}-content`}>
        Edit message content
      </label>
      <textarea
        id={`${id}-content`}
        ref={ref}
        class="message-edit-textarea"
        rows={Math.min(12, Math.max(3, text.split("\n").length + 1))}
        value={text}
        disabled={source === null}
        aria-describedby={saving.error || loadError ? `${id}-error` : undefined}
        onInput={(e) => setText(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === "Escape") {
            // Esc closes this form only, not compose or the selection too.
            e.preventDefault();
            e.stopPropagation();
            props.close();
          } else if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            e.stopPropagation();
            void submit();
          }
        }}
      />
      <ErrorNote id={`${id}-error`} error={saving.error ?? loadError} />
      <div class="message-edit-actions">
        <button type="submit" class="button-primary" disabled={source === null || saving.pending}>
          Save
        </button>
        <button type="button" onClick={() => props.close()}>
          Cancel
        </button>
        <span class="message-edit-hint">Ctrl+Enter to save, Esc to cancel</span>
      </div>
    </form>
  );
}
