import { useState } from "preact/hooks";

const DISMISSED_KEY = "desktop-notifications-banner-dismissed";

/** Whether the browser still asks for notification permission (neither granted nor denied). */
function permissionPending(): boolean {
  return typeof Notification !== "undefined" && Notification.permission === "default";
}

/**
 * The banner that asks for the browser's permission to show desktop
 * notifications (https://zulip.com/help/desktop-notifications), as Zulip's
 * web app does: shown while the permission is undecided and the reader's
 * `enable_desktop_notifications` is on; "Enable desktop notifications" asks
 * the browser, "Dismiss" hides it for this browser.
 */
export function NotificationBanner(props: { enabled: boolean }) {
  const [, rerender] = useState(0);
  const [dismissed, setDismissed] = useState(() => {
    try {
      return localStorage.getItem(DISMISSED_KEY) === "1";
    } catch {
      return false;
    }
  });
  if (!props.enabled || dismissed || !permissionPending()) return null;
  return (
    <div class="notification-banner" role="region" aria-label="Desktop notifications">
      <span>Zulip needs your permission to show desktop notifications.</span>
      <button type="button" class="button-primary" onClick={() => void Notification.requestPermission().then(() => rerender((n) => n + 1))}>
        Enable desktop notifications
      </button>
      <button
        type="button"
        onClick={() => {
          try {
            localStorage.setItem(DISMISSED_KEY, "1");
          } catch {
            // Private mode without storage: dismissed for this page only.
          }
          setDismissed(true);
        }}
      >
        Dismiss
      </button>
    </div>
  );
}
