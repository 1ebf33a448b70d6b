/// <reference types="vite/client" />

/** Build-time settings of the web app (README, Configuration). */
interface ImportMetaEnv {
  /** The token contracts the home page lists: a JSON array of `{name, address, url}`. */
  readonly VITE_TOKEN_CONTRACTS?: string;
}
