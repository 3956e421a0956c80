import { render } from "preact";
import { App } from "./views/App.js";
import { createFetchClient } from "./api/client.js";
import { applyColorScheme, COLOR_SCHEME } from "./model/theme.js";
import "./styles/base.css";

// The system's scheme until the signed-in person's `color_scheme` setting is known (ChatScreen applies it).
applyColorScheme(COLOR_SCHEME.automatic);

render(<App api={createFetchClient()} />, document.getElementById("app")!);
