/** What the page's modal is created with: read from the server's environment at each request, sent to the browser with the page. */
export interface SiteConfig {
  /** The Sigil server. */
  apiUrl: string
  projectId: string
  /** The local dev chain's JSON-RPC (anvil, chain id 31337). */
  devRpcUrl: string
}

export function siteConfig(): SiteConfig {
  return {
    apiUrl: process.env.SIGIL_API_URL || 'http://127.0.0.1:8080',
    projectId: process.env.SIGIL_PROJECT_ID ?? '',
    devRpcUrl: process.env.SIGIL_DEV_RPC_URL || 'http://127.0.0.1:8545',
  }
}
