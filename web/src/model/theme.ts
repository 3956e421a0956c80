/**
 * The colour scheme the app draws in (https://zulip.com/help/dark-theme):
 * the `color_scheme` setting (1 automatic, 2 dark, 3 light) resolved
 * against the system's preference, and written on the root element as
 * `data-color-scheme`, which styles/base.css reads.
 */

/** `color_scheme` values at feature level 283. */
export const COLOR_SCHEME = { automatic: 1, dark: 2, light: 3 } as const;

/** The scheme to draw: dark or light as the setting forces, else as the system prefers (`prefersDark`). */
export function resolveColorScheme(setting: unknown, prefersDark: boolean): "dark" | "light" {
  if (setting === COLOR_SCHEME.dark) return "dark";
  if (setting === COLOR_SCHEME.light) return "light";
  return prefersDark ? "dark" : "light";
}

let current: unknown = COLOR_SCHEME.automatic;
let watching = false;

/**
 * Draws the app in the scheme `setting` resolves to (see
 * {@link resolveColorScheme}) and, while the setting is automatic, follows
 * the system's preference as it changes.
 */
export function applyColorScheme(setting: unknown, root: HTMLElement = document.documentElement): void {
  current = setting;
  const media = typeof matchMedia === "function" ? matchMedia("(prefers-color-scheme: dark)") : null;
  root.dataset.colorScheme = resolveColorScheme(setting, media?.matches ?? false);
  if (media && !watching) {
    watching = true;
    media.addEventListener("change", () => {
      root.dataset.colorScheme = resolveColorScheme(current, media.matches);
    });
  }
}
