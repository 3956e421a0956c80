import { render } from "preact";
import { App } from "./views/App.js";
import { createFetchClient } from "./api/client.js";
import "./styles/base.css";

render(<App api={createFetchClient()} />, document.getElementById("app")!);
