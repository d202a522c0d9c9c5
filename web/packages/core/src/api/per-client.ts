/*
 * A feature's Sigil-server API client, one per modal: made from the modal's options (its server,
 * projectId, sdkType, sdkVersion) the first time the feature asks for it, then kept.
 */
import type { SigilClient } from '../client.js'
import type { ServerIdentity } from './http.js'

/** What a feature's API client is made from. */
export interface ServerClientOptions extends ServerIdentity {
  /** The Sigil server; '' means the page's own origin. */
  baseUrl: string
}

/** `create`'s client for a modal, made once per modal. */
export function perClient<T>(create: (options: ServerClientOptions) => T): (client: SigilClient) => T {
  const made = new WeakMap<SigilClient, T>()
  return (client) => {
    let api = made.get(client)
    if (api === undefined) {
      const { apiUrl, projectId, sdkType, sdkVersion } = client.options
      api = create({ baseUrl: apiUrl, projectId, sdkType, sdkVersion })
      made.set(client, api)
    }
    return api
  }
}
