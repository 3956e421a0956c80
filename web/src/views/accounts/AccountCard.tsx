import type { ComponentChildren } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { ApiError } from "../../api/client.js";
import { LINK_PROBLEM_CODES, type LinkProblemCode } from "../../api/accounts.js";
import { errorText } from "../ui/useAction.js";

/**
 * The frame of every signed-out account page (the sign-in page's card): the
 * page's `<main>` and its heading. Focus moves to the heading when the
 * heading changes (a form became "Check your email"), and when the card
 * appears with nothing focused and no field that takes focus itself (a
 * form replaced by "This link has already been used"), so a screen reader
 * announces the new state and the keyboard starts from there.
 */
export function AccountCard(props: { title: string; children: ComponentChildren }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const first = useRef(true);
  useEffect(() => {
    document.title = props.title;
    const nothingFocused = document.activeElement === null || document.activeElement === document.body;
    const takesFocus = heading.current?.parentElement?.querySelector("[autofocus]") != null;
    if (!first.current || (nothingFocused && !takesFocus)) heading.current?.focus();
    first.current = false;
  }, [props.title]);
  return (
    <main class="login-page account-page">
      <div class="login-card">
        <h1 ref={heading} tabIndex={-1}>
          {props.title}
        </h1>
        {props.children}
      </div>
    </main>
  );
}

/** Which link a problem page is about: what to do next differs. */
export type LinkPurpose = "signup" | "password-reset" | "email-change";

/** The link problem an error is (`CONFIRMATION_EXPIRED`, `_USED`, `_NOT_FOUND`), or null for any other failure. */
export function linkProblemOf(err: unknown): LinkProblemCode | null {
  return err instanceof ApiError && (LINK_PROBLEM_CODES as readonly string[]).includes(err.code) ? (err.code as LinkProblemCode) : null;
}

const PROBLEM_TITLES: Record<LinkProblemCode, string> = {
  CONFIRMATION_EXPIRED: "This link has expired",
  CONFIRMATION_USED: "This link has already been used",
  CONFIRMATION_NOT_FOUND: "This link is not valid",
};

const NEXT_STEP: Record<LinkPurpose, Record<LinkProblemCode, string>> = {
  signup: {
    CONFIRMATION_EXPIRED: "Invitation and sign-up links work for a limited time. Ask an administrator of the organization for a new invitation.",
    CONFIRMATION_USED: "An account was already created with it. Log in with that account's email address and password.",
    CONFIRMATION_NOT_FOUND:
      "The invitation may have been revoked, or the link was not copied whole from the email. Ask an administrator of the organization for a new invitation.",
  },
  "password-reset": {
    CONFIRMATION_EXPIRED: "Password reset links work for a limited time. Ask for a new one.",
    CONFIRMATION_USED: "The password was already changed with it. Ask for a new link if you need to change it again.",
    CONFIRMATION_NOT_FOUND: "Check that the link was copied whole from the email, or ask for a new one.",
  },
  "email-change": {
    CONFIRMATION_EXPIRED: "Email change links work for a limited time. Ask for the change again in your personal settings.",
    CONFIRMATION_USED: "Your email address was already changed with it.",
    CONFIRMATION_NOT_FOUND: "Check that the link was copied whole from the email, or ask for the change again in your personal settings.",
  },
};

/**
 * The page for a link that cannot be used (expired, used, revoked or
 * unknown): what happened, what to do, and the way back to the sign-in page
 * (and, for a reset link, to ask for a new one).
 */
export function LinkProblem(props: { code: LinkProblemCode; purpose: LinkPurpose }) {
  return (
    <AccountCard title={PROBLEM_TITLES[props.code]}>
      <p class="account-text">{NEXT_STEP[props.purpose][props.code]}</p>
      <p class="account-links">
        {props.purpose === "password-reset" && <a href="/accounts/password/reset/">Request a new reset link</a>}
        <a href="/">Go to the login page</a>
      </p>
    </AccountCard>
  );
}

/** The state of a page that first asks the server about its link. */
export type Loaded<T> =
  | { status: "loading" }
  | { status: "ready"; value: T }
  | { status: "problem"; code: LinkProblemCode }
  | { status: "error"; message: string };

/**
 * Runs `load` once when the page opens and follows it: the value, a link
 * problem ({@link linkProblemOf}) or another failure's message.
 */
export function useLoaded<T>(load: () => Promise<T>): [Loaded<T>, (next: Loaded<T>) => void] {
  const [state, setState] = useState<Loaded<T>>({ status: "loading" });
  useEffect(() => {
    let live = true;
    load().then(
      (value) => live && setState({ status: "ready", value }),
      (err: unknown) => {
        if (!live) return;
        const code = linkProblemOf(err);
        setState(code ? { status: "problem", code } : { status: "error", message: errorText(err) });
      },
    );
    return () => {
      live = false;
    };
  }, []);
  return [state, setState];
}

/** A page's loading or failed-to-load state (anything but `ready`), or null when ready. */
export function NotReady(props: { state: Loaded<unknown>; purpose: LinkPurpose; loadingTitle: string }) {
  const { state } = props;
  if (state.status === "loading") {
    return (
      <AccountCard title={props.loadingTitle}>
        <p class="account-text" aria-busy="true">
          Loading…
        </p>
      </AccountCard>
    );
  }
  if (state.status === "problem") return <LinkProblem code={state.code} purpose={props.purpose} />;
  if (state.status === "error") {
    return (
      <AccountCard title="Something went wrong">
        <p class="error-note" role="alert">
          {state.message}
        </p>
        <p class="account-links">
          <a href="">Try again</a>
          <a href="/">Go to the login page</a>
        </p>
      </AccountCard>
    );
  }
  return null;
}
