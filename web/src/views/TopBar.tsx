import { useId, useRef, useState } from "preact/hooks";
import { useDismiss } from "./ui/Popover.js";
import type { ComponentChildren } from "preact";

/** Props of {@link TopBar}. */
export interface TopBarProps {
  realmName: string;
  me: { full_name: string; email: string };
  /** The sidebar drawer's element ID and state, for the "Menu" button (shown at phone width only). */
  sidebarId: string;
  sidebarOpen: boolean;
  onToggleSidebar(): void;
  /** A connection problem to show ("Reconnecting…"), or null. */
  notice: string | null;
  onLogOut(): void;
  /** Opens the "Set status" dialog. */
  onSetStatus?(): void;
  /** Opens "Invite users to organization"; absent for people who may not invite. */
  onInvite?(): void;
  /** The search box. */
  children: ComponentChildren;
}

/**
 * The top bar (`header.app-topbar`, the banner landmark): the "Menu" button
 * that opens the sidebar drawer at phone width, the organization's name as
 * the page's heading, the search box, a connection notice, and the personal
 * menu (a disclosure button named "Personal menu" showing the reader's name
 * and email, "Invite users" for those who may, links to "Personal settings", "Channel settings" and
 * "Organization settings", and "Log out"; Esc or a click elsewhere closes it).
 */
export function TopBar(props: TopBarProps) {
  const id = useId();
  const [menuOpen, setMenuOpen] = useState(false);
  const menuRef = useRef<HTMLDivElement>(null);

  const buttonRef = useRef<HTMLButtonElement>(null);
  useDismiss(menuOpen, menuRef, () => setMenuOpen(false), buttonRef);

  const initial = props.me.full_name.trim().charAt(0).toUpperCase() || "?";
  return (
    <header class="app-topbar">
      <button
        type="button"
        class="menu-button"
        aria-label="Menu"
        aria-expanded={props.sidebarOpen}
        aria-controls={props.sidebarId}
        onClick={props.onToggleSidebar}
      >
        ☰
      </button>
      <h1 class="app-title">
        <a href="#feed">{props.realmName || "Chat"}</a>
      </h1>
      {props.children}
      {props.notice && (
        <p class="connection-notice" role="status">
          {props.notice}
        </p>
      )}
      <div class="user-menu" ref={menuRef}>
        <button
          ref={buttonRef}
          type="button"
          class="user-menu-button"
          aria-label="Personal menu"
          aria-expanded={menuOpen}
          aria-controls={`${id}-menu`}
          onClick={() => setMenuOpen(!menuOpen)}
        >
          <span class="user-avatar" aria-hidden="true">
            {initial}
          </span>
          <span class="user-menu-name">{props.me.full_name}</span>
        </button>
        <ul class="user-menu-list" id={`${id}-menu`} hidden={!menuOpen}>
          <li class="user-menu-who">
            <strong>{props.me.full_name}</strong>
            <span class="user-menu-email">{props.me.email}</span>
          </li>
          {props.onSetStatus && (
            <li>
              <button
                type="button"
                class="set-status"
                onClick={() => {
                  setMenuOpen(false);
                  props.onSetStatus?.();
                }}
              >
                Set status
              </button>
            </li>
          )}
          {props.onInvite && (
            <li>
              <button
                type="button"
                class="invite-users"
                onClick={() => {
                  setMenuOpen(false);
                  props.onInvite?.();
                }}
              >
                Invite users
              </button>
            </li>
          )}
          <li>
            <a href="#settings/profile" onClick={() => setMenuOpen(false)}>
              Personal settings
            </a>
          </li>
          <li>
            <a href="#channels/subscribed" onClick={() => setMenuOpen(false)}>
              Channel settings
            </a>
          </li>
          <li>
            <a href="#organization/organization-profile" onClick={() => setMenuOpen(false)}>
              Organization settings
            </a>
          </li>
          <li>
            <button type="button" class="logout" onClick={props.onLogOut}>
              Log out
            </button>
          </li>
        </ul>
      </div>
    </header>
  );
}
