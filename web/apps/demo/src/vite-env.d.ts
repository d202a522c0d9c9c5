/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_SIGIL_API_URL?: string
  readonly VITE_SIGIL_PROJECT_ID?: string
  readonly VITE_SIGIL_DEV_RPC_URL?: string
}

interface ImportMeta {
  readonly env: ImportMetaEnv
}
