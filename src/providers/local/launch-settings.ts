/** Chromium flags that keep a browser quiet on a closed network. */
export const closedNetworkArgs = [
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
  "--disable-default-apps",
  "--disable-dev-shm-usage",
] as const;

/** Environment variables passed through to Chromium; everything else (secrets, LD_PRELOAD, NODE_OPTIONS…) is dropped. */
export const allowedEnvironment = [
  "PATH",
  "LANG",
  "LANGUAGE",
  "LC_ALL",
  "LC_CTYPE",
  "TZ",
  "DISPLAY",
  "WAYLAND_DISPLAY",
  "XDG_RUNTIME_DIR",
  "FONTCONFIG_FILE",
  "FONTCONFIG_PATH",
] as const;

/**
 * The environment Chromium is launched with: the allowlisted variables from
 * `source`, and a private home so nothing of the user's is read or written.
 */
export function chromiumEnvironment(source: Record<string, string | undefined>, home: string): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const name of allowedEnvironment) {
    const value = source[name];
    if (value !== undefined) environment[name] = value;
  }
  environment.HOME = home;
  environment.XDG_CONFIG_HOME = `${home}/.config`;
  environment.XDG_CACHE_HOME = `${home}/.cache`;
  return environment;
}
