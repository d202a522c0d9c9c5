/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_SIGIL_API_URL?: string
  readonly VITE_SIGIL_PROJECT_ID?: string
  readonly VITE_SIGIL_DEV_RPC_URL?: string
  /** 'off' turns sign-in off, 'optional' makes it optional; required otherwise. */
  readonly VITE_SIGIL_SIWX?: string
  /** The dev chain's SGL token address (from devchain/deploy.mjs). */
  readonly VITE_SIGIL_SGL_ADDRESS?: string
}

interface ImportMeta {
  readonly env: ImportMetaEnv
}
