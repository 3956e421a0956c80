import { useState } from "preact/hooks";
import { logIn } from "../api/session.js";

/** The sign-in page at the site root (Zulip's "Log in" form). */
export function Login(props: { onLoggedIn(): void }) {
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      onSubmit={async (e) => {
        e.preventDefault();
        const form = new FormData(e.currentTarget);
        try {
          await logIn(String(form.get("username")), String(form.get("password")));
          props.onLoggedIn();
        } catch (err) {
          setError(err instanceof Error ? err.message : String(err));
        }
      }}
    >
      <label>
        Email <input name="username" type="email" autoComplete="username" required />
      </label>
      <label>
        Password <input name="password" type="password" autoComplete="current-password" required />
      </label>
      {error && <p role="alert">{error}</p>}
      <button type="submit">Log in</button>
    </form>
  );
}
