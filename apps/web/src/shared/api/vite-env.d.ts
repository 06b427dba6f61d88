/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Base URL of the API when the console is served from another origin; empty means same origin. */
  readonly VITE_API_BASE?: string;
}
