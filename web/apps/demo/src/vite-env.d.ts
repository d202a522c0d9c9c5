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
  /** Social logins in order, e.g. 'google,github,farcaster' (also `?socials=`); none by default. */
  readonly VITE_SIGIL_SOCIALS?: string
  /** Chain families the page configures: 'eip155' by default; e.g. 'eip155,solana,bip122' (also `?families=`). */
  readonly VITE_SIGIL_FAMILIES?: string
  /** CAIP-2 id of the local Solana runtime (devsolana/). */
  readonly VITE_SIGIL_SOLANA_CHAIN?: string
  /** CAIP-2 id of the local Bitcoin regtest node (devbitcoin/). */
  readonly VITE_SIGIL_BITCOIN_CHAIN?: string
}

interface ImportMeta {
  readonly env: ImportMetaEnv
}
