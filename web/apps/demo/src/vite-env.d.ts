/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_SIGIL_API_URL?: string
  readonly VITE_SIGIL_PROJECT_ID?: string
  readonly VITE_SIGIL_DEV_RPC_URL?: string
  /** 'off' turns sign-in off, 'optional' makes it optional; required otherwise. */
  readonly VITE_SIGIL_SIWX?: string
  /** The dev chain's SGL token address (from devchain/deploy.mjs). */
  readonly VITE_SIGIL_SGL_ADDRESS?: string
  /** The Sigil server's embedded-wallet frame origin. */
  readonly VITE_SIGIL_FRAME_URL?: string
  /** The local mail sink's HTTP inbox (make demo). */
  readonly VITE_SIGIL_MAIL_URL?: string
  /** 'on' or 'off': email login to the embedded wallet (on by default when a frame URL is set). */
  readonly VITE_SIGIL_EMAIL?: string
}

interface ImportMeta {
  readonly env: ImportMetaEnv
}
