import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const root = fileURLToPath(new URL(".", import.meta.url));

/**
 * The web app's build. `base` is where the stack serves the built files
 * (`/static/app/`, the `web` route group); `index.html` itself is served at the
 * site root. Preact stands in for React where a library expects React
 * (the virtual list), so there is one component runtime in the bundle.
 *
 * `npm run dev:web` serves the app with reload on change and proxies the
 * server's paths to `npm start` on port 9991 (see docs/web.md).
 */
export default defineConfig({
  root,
  base: "/static/app/",
  esbuild: { jsx: "automatic", jsxImportSource: "preact" },
  resolve: {
    alias: {
      react: "preact/compat",
      "react-dom": "preact/compat",
      "react/jsx-runtime": "preact/jsx-runtime",
    },
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    assetsDir: "assets",
    target: "es2022",
    sourcemap: false,
  },
  server: {
    port: 5173,
    proxy: Object.fromEntries(
      ["/json", "/api", "/accounts", "/user_uploads", "/user_avatars", "/avatar", "/static/generated"].map((p) => [
        p,
        { target: "http://127.0.0.1:9991", changeOrigin: false },
      ]),
    ),
  },
});
