import { useState } from "preact/hooks";
import type { Chat } from "../../../model/chat.js";
import type { WireRealmBot } from "../../../model/personal.js";
import type { ChatState } from "../../../model/store.js";
import { zuliprc } from "../../../model/webhook-url.js";
import { ConfirmDialog } from "../../ui/Dialog.js";
import { ErrorNote } from "../../ui/ErrorNote.js";
import { useAction } from "../../ui/useAction.js";
import type { SectionProps } from "../types.js";
import { CreateBotForm } from "./create-bot.js";
import { CopyButton } from "./controls.js";
import { WebhookUrlBuilder } from "./webhook-url-builder.js";

/** Zulip's bot types (https://zulip.com/help/bots-overview#bot-type). */
export const BOT_TYPES: Record<number, string> = { 1: "Generic bot", 2: "Incoming webhook", 3: "Outgoing webhook", 4: "Embedded bot" };

/**
 * "Your bots" (`#settings/your-bots`, https://zulip.com/help/add-a-bot-or-integration):
 * the bots the reader owns (register's `realm_bots`, kept by `realm_bot`
 * events), active first; creating one (`POST /bots`); each bot's API key and
 * `zuliprc`, deactivation (`DELETE /bots/{id}`) and reactivation
 * (`POST /users/{id}/reactivate`); for an incoming-webhook bot the URL of
 * each integration, ready to paste.
 */
export function YourBotsSection({ chat, state }: SectionProps) {
  const mine = state.personal.bots.filter((b) => b.owner_id === state.me.user_id);
  const active = mine.filter((b) => b.is_active);
  const inactive = mine.filter((b) => !b.is_active);
  return (
    <div>
      <h2 tabIndex={-1}>Your bots</h2>
      <CreateBotForm chat={chat} />
      <h3>Active bots</h3>
      {active.length === 0 ? <p>You have no active bots.</p> : <BotList chat={chat} state={state} bots={active} label="Active bots" />}
      {inactive.length > 0 && (
        <>
          <h3>Deactivated bots</h3>
          <BotList chat={chat} state={state} bots={inactive} label="Deactivated bots" />
        </>
      )}
    </div>
  );
}

function BotList(props: { chat: Chat; state: ChatState; bots: WireRealmBot[]; label: string }) {
  return (
    <ul class="settings-bots" aria-label={props.label}>
      {[...props.bots]
        .sort((a, b) => a.full_name.localeCompare(b.full_name))
        .map((bot) => (
          <li key={bot.user_id}>
            <BotCard chat={props.chat} state={props.state} bot={bot} />
          </li>
        ))}
    </ul>
  );
}

function BotCard({ chat, state, bot }: { chat: Chat; state: ChatState; bot: WireRealmBot }) {
  const [showKey, setShowKey] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const deactivate = useAction(async () => {
    await chat.api.call("DELETE", `/bots/${bot.user_id}`);
    setConfirming(false);
  });
  const reactivate = useAction(() => chat.api.call("POST", `/users/${bot.user_id}/reactivate`));
  const regenerate = useAction(() => chat.api.call("POST", `/bots/${bot.user_id}/api_key/regenerate`));
  const rc = zuliprc(bot.email, bot.api_key, location.origin);
  return (
    <article class="settings-bot" aria-label={`Bot ${bot.full_name}`}>
      <header class="settings-inline">
        <img src={bot.avatar_url} alt="" width={40} height={40} />
        <div>
          <strong>{bot.full_name}</strong>
          <div class="settings-hint">
            {bot.email} · {BOT_TYPES[bot.bot_type ?? 1] ?? "Bot"}
          </div>
        </div>
      </header>
      <div class="settings-inline">
        {bot.is_active ? (
          <>
            <button type="button" aria-expanded={showKey} aria-label={`${showKey ? "Hide" : "Show"} API key of ${bot.full_name}`} onClick={() => setShowKey(!showKey)}>
              {showKey ? "Hide API key" : "Show API key"}
            </button>
            <button type="button" class="button-danger" aria-label={`Deactivate ${bot.full_name}`} onClick={() => setConfirming(true)}>
              Deactivate
            </button>
          </>
        ) : (
          <button type="button" aria-label={`Reactivate ${bot.full_name}`} disabled={reactivate.pending} onClick={() => void reactivate.run()}>
            Reactivate
          </button>
        )}
      </div>
      <ErrorNote error={reactivate.error} />
      {bot.is_active && showKey && (
        <div class="settings-form">
          <div class="settings-row">
            <span class="settings-label">API key</span>
            <code class="api-key" aria-label={`API key of ${bot.full_name}`}>
              {bot.api_key}
            </code>
          </div>
          <div class="settings-inline">
            <CopyButton text={bot.api_key} label="Copy API key" />
            <button type="button" disabled={regenerate.pending} onClick={() => void regenerate.run()}>
              Generate new API key
            </button>
            <a href={`data:text/plain;charset=utf-8,${encodeURIComponent(rc)}`} download="zuliprc">
              Download zuliprc
            </a>
          </div>
          <ErrorNote error={regenerate.error} />
          <pre class="zuliprc" aria-label={`zuliprc of ${bot.full_name}`} tabIndex={0}>
            {rc}
          </pre>
        </div>
      )}
      {bot.is_active && bot.bot_type === 2 && <WebhookUrlBuilder bot={bot} state={state} />}
      {confirming && (
        <ConfirmDialog
          title={`Deactivate ${bot.full_name}?`}
          confirmLabel="Deactivate"
          pending={deactivate.pending}
          error={deactivate.error}
          onConfirm={() => void deactivate.run()}
          onClose={() => {
            deactivate.clearError();
            setConfirming(false);
          }}
        >
          <p>The bot stops working at once: its API key and webhook URLs are refused until it is reactivated.</p>
        </ConfirmDialog>
      )}
    </article>
  );
}
