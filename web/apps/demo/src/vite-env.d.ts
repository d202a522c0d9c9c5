/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_SIGIL_API_URL?: string
  readonly VITE_SIGIL_PROJECT_ID?: string
  readonly VITE_SIGIL_DEV_RPC_URL?: string
  /** 'off' turns sign-in off, 'optional' makes it optional; required otherwise. */
  readonly VITE_SIGIL_SIWX?: string
}

interface ImportMeta {
  readonly env: ImportMetaEnv
}
