import { useEffect, useId, useRef, useState } from "preact/hooks";
import { appendBlock } from "../../model/message-actions.js";
import { RenderedContent } from "../message/RenderedContent.js";
import { enterKeyAction } from "./keys.js";
import { RecipientPicker } from "./RecipientPicker.js";
import { insertAtCaret, useMessageTypeahead, useTopicTypeahead } from "./ComposeTypeahead.js";
import { TypingNotifier, type TypingRecipient } from "./typing.js";
import type { ComposeTarget } from "./types.js";
import { fileDropProps, filePasteHandler, UploadList, useUploads } from "./Uploads.js";
import type { ComposeProps } from "./props.js";
import { ComposeActions } from "./ComposeActions.js";
import { mountComposeHandles } from "./mounted.js";

export type { ComposeProps } from "./props.js";
export { focusCompose, insertIntoCompose, uploadToCompose } from "./mounted.js";

/** Zulip's web app's words for a send its compose box refuses before asking the server (Zulip's `compose_validate`). */
export const NOTHING_TO_SEND = "You have nothing to send!";
export const NO_STREAM = "Please specify a stream.";
export const NO_RECIPIENTS = "Please specify at least one valid recipient.";
export const UPLOAD_IN_PROGRESS = "Cannot send message while files are being uploaded.";

/** Zulip's longest topic (`MAX_TOPIC_NAME_LENGTH`). */
const MAX_TOPIC_LENGTH = 60;

/** Where the box's fields address the message; null while a stream or the recipients are missing. */
function currentTargetOf(kind: "stream" | "private", streamId: number | null, topic: string, userIds: number[]): ComposeTarget | null {
  if (kind === "stream") return streamId === null ? null : { type: "stream", stream_id: streamId, topic: topic.trim() };
  return userIds.length ? { type: "private", user_ids: userIds } : null;
}

function targetKey(t: ComposeTarget | null): string {
  return t ? JSON.stringify(t) : "";
}

/**
 * The compose box: stream and topic or direct-message recipients, the message
 * with a Markdown preview (`POST /messages/render`, https://zulip.com/api/render-message),
 * Send; typing notifications (`POST /typing`, https://zulip.com/api/set-typing-status).
 */
export function Compose(props: ComposeProps) {
  const id = useId();
  const open = props.open ?? true;
  const [kind, setKind] = useState<"stream" | "private">(props.target?.type ?? props.kind ?? "stream");
  const [streamId, setStreamId] = useState<number | null>(props.target?.type === "stream" ? props.target.stream_id : null);
  const [topic, setTopic] = useState(props.target?.type === "stream" ? props.target.topic : "");
  const [userIds, setUserIds] = useState<number[]>(props.target?.type === "private" ? props.target.user_ids : []);
  const [content, setContentState] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [preview, setPreview] = useState<{ html: string } | "loading" | null>(null);
  // The latest text, for the send's callback, which outlives the render it started in.
  const contentRef = useRef(content);
  const setContent = (text: string) => {
    contentRef.current = text;
    setContentState(text);
  };

  const streamRef = useRef<HTMLSelectElement>(null);
  const topicRef = useRef<HTMLInputElement>(null);
  const toRef = useRef<HTMLInputElement>(null);
  const messageRef = useRef<HTMLTextAreaElement>(null);
  const uploads = useUploads({
    upload: props.upload,
    maxSizeMib: props.maxUploadSizeMib,
    textarea: messageRef,
    getText: () => contentRef.current,
    setText: setContent,
    onError: setError,
  });
  const startUploads = (files: File[]) => {
    setPreview(null);
    uploads.start(files);
  };
  useEffect(() => mountComposeHandles({ upload: startUploads }));

  const notifier = useRef<TypingNotifier | null>(null);
  notifier.current ??= new TypingNotifier((op, to) => {
    const where = to.type === "stream" ? { type: "stream", stream_id: to.stream_id, topic: to.topic } : { type: "direct", to: to.to };
    props.api.call("POST", "/typing", { op, ...where }).catch(() => undefined);
  }, props.typingClock);
  useEffect(() => () => notifier.current?.stop(), []);

  // A new default target (another narrow, a reply) replaces the recipient fields; the
  // message text stays. Done while rendering, so the fields (and a focus request
  // made in the same change) see the new recipient at once.
  const key = `${targetKey(props.target)}|${props.kind ?? ""}`;
  const [syncedKey, setSyncedKey] = useState(key);
  if (syncedKey !== key) {
    setSyncedKey(key);
    const t = props.target;
    if (!t) {
      if (props.kind) setKind(props.kind);
    } else {
      setKind(t.type);
      if (t.type === "stream") {
        setStreamId(t.stream_id);
        setTopic(t.topic);
      } else {
        setUserIds(t.user_ids);
      }
    }
  }

  const [loadedSeq, setLoadedSeq] = useState(props.load?.seq);
  if (props.load && props.load.seq !== loadedSeq) {
    const l = props.load;
    setLoadedSeq(l.seq);
    setKind(l.target.type);
    if (l.target.type === "stream") {
      setStreamId(l.target.stream_id);
      setTopic(l.target.topic);
    } else setUserIds(l.target.user_ids);
    setContent(l.content);
    setPreview(null);
  }
  const messageTa = useMessageTypeahead({
    id: `${id}-message`,
    field: messageRef,
    value: content,
    setValue: setContent,
    people: props.people,
    streams: props.streams,
    inStream: kind === "stream",
    data: props.typeahead,
  });
  const topicTa = useTopicTypeahead({ id: `${id}-topic`, field: topicRef, value: topic, setValue: setTopic, streamId, data: props.typeahead });

  const focusFirstEmpty = () => {
    if (kind === "stream" && streamId === null) streamRef.current?.focus();
    else if (kind === "stream" && topic.trim() === "") topicRef.current?.focus();
    else if (kind === "private" && userIds.length === 0) toRef.current?.focus();
    else messageRef.current?.focus();
  };
  useEffect(() => {
    if (!open) return;
    const insert = (block: string) => {
      setContent(appendBlock(contentRef.current, block));
      requestAnimationFrame(() => {
        const el = messageRef.current;
        el?.focus();
        el?.setSelectionRange(el.value.length, el.value.length);
      });
    };
    return mountComposeHandles({ focus: focusFirstEmpty, insert });
  });
  // Each new focus request (the `c`, `x`, `r` shortcuts) focuses the first empty field.
  const focusRequest = useRef(props.focusRequest);
  useEffect(() => {
    if (open && props.focusRequest !== focusRequest.current) focusFirstEmpty();
    focusRequest.current = props.focusRequest;
  }, [props.focusRequest]);
  const wasOpen = useRef<boolean | null>(null);
  useEffect(() => {
    if (open && (wasOpen.current === false || (wasOpen.current === null && props.autoFocus))) focusFirstEmpty();
    if (!open) notifier.current?.stop();
    wasOpen.current = open;
  }, [open]);

  const currentTarget = (): ComposeTarget | null => currentTargetOf(kind, streamId, topic, userIds);
  const typingRecipient = (): TypingRecipient | null => {
    const t = currentTarget();
    if (!t) return null;
    return t.type === "stream" ? t : { type: "direct", to: t.user_ids };
  };

  // Compose opening for a conversation, empty, brings back that conversation's draft.
  const recipientKey = JSON.stringify(currentTargetOf(kind, streamId, topic, userIds));
  useEffect(() => {
    if (!open || !props.drafts || contentRef.current !== "") return;
    const draft = props.drafts.take(currentTargetOf(kind, streamId, topic, userIds));
    if (draft) setContent(draft.content);
  }, [open, recipientKey]);

  const close = () => {
    const t = currentTarget();
    if (props.drafts && t && contentRef.current.trim() !== "") {
      props.drafts.edited(t, contentRef.current);
      setContent("");
      setPreview(null);
    }
    void props.drafts?.close();
    props.onClose?.();
  };

  const submit = async (schedule?: number) => {
    const text = content;
    if (uploads.items.length > 0) return setError(UPLOAD_IN_PROGRESS);
    if (!text.trim()) return setError(NOTHING_TO_SEND);
    const target = currentTarget();
    if (!target) return setError(kind === "stream" ? NO_STREAM : NO_RECIPIENTS);
    notifier.current?.stop();
    setError(null);
    // The message shows in the feed at once, so the box empties at once; a
    // refused send puts the draft back unless something new was typed since.
    setContent("");
    setPreview(null);
    try {
      if (schedule !== undefined && props.onSchedule) await props.onSchedule(target, text, schedule);
      else await props.onSend(target, text);
      void props.drafts?.sent();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
      if (contentRef.current === "") setContent(text);
    }
  };

  const togglePreview = async () => {
    if (preview) return setPreview(null);
    if (!content.trim()) return setPreview({ html: "<p>Nothing to preview</p>" });
    setPreview("loading");
    try {
      const res = await props.api.call<{ rendered: string }>("POST", "/messages/render", { content });
      setPreview({ html: res.rendered });
    } catch (err) {
      setPreview(null);
      setError(err instanceof Error ? err.message : String(err));
    }
  };

  if (!open) {
    if (!props.onOpen) return null;
    return (
      <section class="compose compose-closed" aria-label="Compose">
        <button type="button" onClick={() => props.onOpen?.("stream")}>
          Start new conversation
        </button>
        <button type="button" onClick={() => props.onOpen?.("private")}>
          New direct message
        </button>
      </section>
    );
  }

  return (
    <section class="compose" aria-label="Compose">
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
        {...fileDropProps(startUploads)}
        onKeyDown={(e) => {
          if (e.key === "Escape" && props.onClose) {
            e.preventDefault();
            e.stopPropagation();
            close();
          }
        }}
      >
        <div class="compose-recipient">
          <div class="compose-kind" role="group" aria-label="Conversation type">
            <button type="button" aria-pressed={kind === "stream"} onClick={() => setKind("stream")}>
              Stream message
            </button>
            <button type="button" aria-pressed={kind === "private"} onClick={() => setKind("private")}>
              Direct message
            </button>
          </div>
          {kind === "stream" ? (
            <>
              <div class="compose-field compose-stream">
                <label for={`${id}-stream`}>Stream</label>
                <select
                  id={`${id}-stream`}
                  ref={streamRef}
                  value={streamId === null ? "" : String(streamId)}
                  onChange={(e) => setStreamId(e.currentTarget.value ? Number(e.currentTarget.value) : null)}
                >
                  <option value="">Choose a stream</option>
                  {props.streams.map((s) => (
                    <option key={s.stream_id} value={String(s.stream_id)}>
                      {s.name}
                    </option>
                  ))}
                </select>
              </div>
              <div class="compose-field compose-topic">
                <label for={`${id}-topic`}>Topic</label>
                <input
                  id={`${id}-topic`}
                  ref={topicRef}
                  type="text"
                  maxLength={MAX_TOPIC_LENGTH}
                  autoComplete="off"
                  value={topic}
                  {...topicTa.fieldProps}
                  onKeyDown={topicTa.onKeyDown}
                  onInput={(e) => setTopic(e.currentTarget.value)}
                />
                {topicTa.listbox}
              </div>
            </>
          ) : (
            <RecipientPicker people={props.people} selected={userIds} onChange={setUserIds} inputRef={toRef} />
          )}
          {props.onClose && (
            <button type="button" class="compose-close" aria-label="Close" onClick={close}>
              ×
            </button>
          )}
        </div>
        <label class="visually-hidden" for={`${id}-message`}>
          Message
        </label>
        <textarea
          id={`${id}-message`}
          ref={messageRef}
          class="compose-textarea"
          rows={3}
          placeholder="Message"
          hidden={preview !== null}
          value={content}
          {...messageTa.fieldProps}
          onInput={(e) => {
            const value = e.currentTarget.value;
            setContent(value);
            notifier.current?.typed(typingRecipient(), value.trim() !== "");
            props.drafts?.edited(currentTarget(), value);
          }}
          onPaste={filePasteHandler(startUploads)}
          onKeyDown={(e) => {
            if (messageTa.onKeyDown(e)) return;
            if (enterKeyAction(e, props.enterSends) === "send") {
              e.preventDefault();
              void submit();
            }
          }}
        />
        {messageTa.listbox}
        {preview !== null && (
          <div class="compose-preview" role="region" aria-label="Preview" aria-busy={preview === "loading"}>
            {preview === "loading" ? <p>Rendering…</p> : <RenderedContent html={preview.html} selfUserId={props.selfUserId} />}
          </div>
        )}
        <UploadList uploads={uploads} />
        {props.banner}
        {error && (
          <p class="compose-error" role="alert">
            {error}
          </p>
        )}
        <ComposeActions
          typeahead={props.typeahead}
          onEmoji={(name) => insertAtCaret(messageRef.current, contentRef.current, setContent, `:${name}: `)}
          previewOn={preview !== null}
          onPreview={() => void togglePreview()}
          onFiles={startUploads}
          enterSends={props.enterSends}
          onEnterSendsChange={props.onEnterSendsChange}
          onError={setError}
          onSchedule={props.onSchedule ? (ts) => void submit(ts) : undefined}
          twentyFourHour={props.twentyFourHour}
          sending={uploads.items.length > 0}
          sendLabel={props.sendLabel}
        />
      </form>
    </section>
  );
}
