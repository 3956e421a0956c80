import { render } from "preact";
import { App } from "./views/App.js";
import { createFetchClient } from "./api/client.js";
import { accountPageOf } from "./model/account-pages.js";
import { applyColorScheme, COLOR_SCHEME } from "./model/theme.js";
import "./styles/base.css";

// The system's scheme until the signed-in person's `color_scheme` setting is known (ChatScreen applies it).
applyColorScheme(COLOR_SCHEME.automatic);

const root = document.getElementById("app")!;
const api = createFetchClient();
// The signed-out account pages (sign-up links, password reset, …) are not the chat: their code loads on demand.
const accountPage = accountPageOf(location.pathname);
if (accountPage) {
  render(<main class="app-loading" aria-busy="true"><p>Loading…</p></main>, root);
  void import("./views/accounts/AccountPages.js").then(({ AccountPages }) => render(<AccountPages api={api} page={accountPage} />, root));
} else {
  render(<App api={api} />, root);
}
