/*
 * The embedded wallet's working part, loaded on first use (see ./auth.ts): the frame bridge,
 * the login steps, the login cache, and the providers (EIP-1193 for eip155, a signMessage /
 * signTransaction object for solana). Requests are safe (straight to the frame), unsafe (the
 * frame asks the user first; the modal shows its approval UI) or not allowed (refused here).
 */
import { errors } from '../messages/core.js'
import { SigilError, tryAgainAfter } from '../errors.js'
import { FrameBridge, FRAME_SIGN_OUT_WAIT_MS } from '../frame/bridge.js'
import { rpcSafety, type FrameUser } from '../frame/messages.js'
import type { CaipNetwork, ChainNamespace } from '../types.js'
import { createEmbeddedSolanaProvider } from './auth-solana.js'
import {
  EMAIL_COOLDOWN_MS,
  LoginCacheKeys,
  socialLoginOf,
  type AuthConnectorOptions,
  type AuthImpl,
  type EmbeddedRequestEvent,
  type SocialLogin,
} from './auth.js'
import { parseChainId, type Eip1193Listener } from './eip1193.js'
import type { Connection, ConnectorEvent } from './types.js'

interface Emitters {
  emit(event: ConnectorEvent): void
  emitRequest(event: EmbeddedRequestEvent): void
}

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

export function createAuthImpl(options: AuthConnectorOptions, { emit, emitRequest }: Emitters): AuthImpl {
  const { storage } = options
  let bridge: FrameBridge | undefined
  let user: FrameUser | undefined
  let chainId: string = options.chainId()
  const eventListeners = new Map<string, Set<Eip1193Listener>>()
  const emitEip1193 = (event: string, ...args: unknown[]) => {
    for (const l of [...(eventListeners.get(event) ?? [])]) l(...args)
  }

  const frame = () => {
    if (bridge) return bridge
    const created = new FrameBridge({
      frameUrl: options.frameUrl,
      projectId: options.projectId,
      chainId,
      version: options.version,
      ...(options.enableLogger ? { enableLogger: true } : {}),
    })
    bridge = created
    // Once ready, the frame learns whose page it serves and the modal's theme (for its approval view).
    void created.ready
      .then(async () => {
        const { dappData, theme } = options
        if (dappData)
          await created.request('SYNC_DAPP_DATA', {
            ...(dappData.metadata ? { metadata: dappData.metadata } : {}),
            sdkType: dappData.sdkType,
            sdkVersion: options.version,
            projectId: options.projectId,
          })
        if (theme) {
          const { themeMode, themeVariables } = theme()
          const variables = Object.fromEntries(Object.entries(themeVariables).filter((e): e is [string, string | number] => e[1] !== undefined))
          await created.request('SYNC_THEME', { themeMode, themeVariables: variables })
        }
      })
      .catch(() => undefined)
    return created
  }

  const forget = () => {
    for (const key of Object.values(LoginCacheKeys)) storage.removeItem(key)
    user = undefined
  }
  const remember = (email: string | undefined) => {
    storage.setItem(LoginCacheKeys.emailLogin, 'true')
    if (email) storage.setItem(LoginCacheKeys.email, email)
    storage.setItem(LoginCacheKeys.lastChain, chainId)
    storage.removeItem(LoginCacheKeys.lastEmailLoginTime)
  }

  const evmAddress = () => user?.accounts.find((a) => a.namespace === 'eip155')?.address
  /** The host's first EVM chain: where the EVM account is while a network of another namespace is active. */
  let evmFallback: number | undefined
  const evmChain = () => (chainId.startsWith('eip155:') ? Number(chainId.slice(7)) : evmFallback)

  /** A social login in progress or finished: the provider, the username once known. */
  const rememberSocial = (login: SocialLogin | undefined) => {
    if (login) storage.setItem(LoginCacheKeys.socialProvider, login.provider)
    else storage.removeItem(LoginCacheKeys.socialProvider)
    if (login?.userName) storage.setItem(LoginCacheKeys.socialUsername, login.userName)
    else storage.removeItem(LoginCacheKeys.socialUsername)
    if (login?.provider !== 'farcaster') storage.removeItem(LoginCacheKeys.farcasterUrl)
  }

  /**
   * Asks the frame until the login finished: each ask waits on the server up to 20 s, within
   * the frame's 30 s request timeout. Aborting stops between two asks or during one.
   */
  const untilDone = async <T extends object>(
    ask: () => Promise<T | { pending: true; refused?: string }>,
    signal: AbortSignal | undefined,
    onPending?: (pending: { refused?: string }) => void,
  ): Promise<T> => {
    for (;;) {
      if (signal?.aborted) throw new SigilError(errors.somethingWentWrong, 'ABORTED')
      const answer = await ask()
      if (!('pending' in answer)) return answer
      onPending?.(answer)
    }
  }

  /**
   * The user's accounts in every namespace the frame has one for. Each starts on the active
   * network when that is of its namespace, else on the host's first network of it (a Solana
   * account on the host's Solana network, not mainnet, while an EVM network is active).
   */
  const connection = (u: FrameUser, networks: readonly CaipNetwork[]): Connection => {
    const first = (namespace: ChainNamespace) => networks.find((n) => n.chainNamespace === namespace)
    const solana = networks.find((n) => n.caipNetworkId === chainId) ?? first('solana')
    if (solana?.chainNamespace === 'solana') solanaProvider.useNetwork(solana)
    const evm = first('eip155')
    evmFallback = evm ? Number(evm.id) : undefined
    const social = socialLoginOf(storage)
    return {
      connectorId: 'sigil-embedded',
      accounts: u.accounts.map((a) => ({
        namespace: a.namespace,
        address: a.address,
        type: a.type,
        chainId: a.namespace === 'eip155' ? (evmChain() ?? 1) : (solanaProvider.network?.id ?? '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'),
      })),
      walletInfo: { name: u.email ?? social?.userName ?? 'Embedded wallet' },
      user: { ...(u.email ? { email: u.email } : {}), ...(social?.userName ? { username: social.userName } : {}) },
      ...(social ? { socialProvider: social.provider } : {}),
    }
  }

  /** One request through the frame, with the modal told about approvals and refusals. */
  const rpcRequest = async (method: string, params: unknown, namespaceChain: string): Promise<unknown> => {
    const safety = rpcSafety(method)
    if (safety === 'not-allowed') {
      emitRequest({ type: 'not-allowed', message: errors.rpcNotAllowed })
      throw new SigilError(errors.rpcNotAllowed, 4200)
    }
    const payload = { method, ...(params === undefined ? {} : { params }), chainId: namespaceChain }
    if (safety === 'safe') return (await frame().request('RPC_REQUEST', payload)).result
    const controller = new AbortController()
    emitRequest({ type: 'approval-start', abort: () => controller.abort() })
    let ok = false
    try {
      // The user takes the time they need to read and approve: no timeout.
      const { result } = await frame().request('RPC_REQUEST', payload, { timeoutMs: 0, signal: controller.signal })
      ok = true
      return result
    } finally {
      emitRequest({ type: 'approval-end', ok })
    }
  }

  const evmProvider = {
    async request({ method, params }: { method: string; params?: readonly unknown[] | Record<string, unknown> }): Promise<unknown> {
      switch (method) {
        case 'eth_accounts':
        case 'eth_requestAccounts':
          return evmAddress() ? [evmAddress()] : []
        case 'eth_chainId':
          return `0x${(evmChain() ?? 1).toString(16)}`
        case 'wallet_getCapabilities':
          // No EIP-5792 capabilities (asset discovery, batching) here: balances come from the server.
          return {}
        case 'wallet_switchEthereumChain': {
          const wanted = parseChainId((params as [{ chainId: string }] | undefined)?.[0]?.chainId)
          const caip = `eip155:${wanted}`
          await frame().request('SWITCH_NETWORK', { chainId: caip })
          chainId = caip
          storage.setItem(LoginCacheKeys.lastChain, caip)
          emitEip1193('chainChanged', `0x${wanted.toString(16)}`)
          emit({ type: 'chainChanged', namespace: 'eip155', chainId: wanted })
          return null
        }
        default:
          return rpcRequest(method, params, `eip155:${evmChain() ?? 1}`)
      }
    },
    on(event: string, listener: Eip1193Listener) {
      const set = eventListeners.get(event) ?? new Set()
      set.add(listener)
      eventListeners.set(event, set)
    },
    removeListener(event: string, listener: Eip1193Listener) {
      eventListeners.get(event)?.delete(listener)
    },
  }

  const solanaProvider = createEmbeddedSolanaProvider({
    walletName: 'Embedded wallet',
    address: () => user?.accounts.find((a) => a.namespace === 'solana')?.address,
    network: undefined,
    request: rpcRequest,
  })

  const getUser = async () => {
    const u = await frame().request('GET_USER', { chainId })
    user = u
    return u
  }

  return {
    connector: {
      async connect({ networks }) {
        const u = await getUser()
        remember(u.email)
        return connection(u, networks)
      },
      async reconnect({ networks }) {
        try {
          const { isConnected } = await frame().request('IS_CONNECTED')
          if (!isConnected) {
            forget()
            return undefined
          }
          return connection(await getUser(), networks)
        } catch {
          forget()
          return undefined
        }
      },
      async disconnect() {
        const b = bridge
        forget()
        if (!b) return
        // Sign-out waits at most 3 s: the local disconnect stands either way.
        await b.request('SIGN_OUT', undefined, { timeoutMs: FRAME_SIGN_OUT_WAIT_MS }).catch(() => undefined)
        emitEip1193('accountsChanged', [])
      },
      getProvider: (namespace: ChainNamespace) =>
        user ? (namespace === 'eip155' ? evmProvider : namespace === 'solana' ? solanaProvider : undefined) : undefined,
      async connectEmail(email: string) {
        const trimmed = email.trim()
        if (!EMAIL_RE.test(trimmed)) throw new SigilError(errors.invalidEmail, 'INVALID_EMAIL')
        const last = Number(storage.getItem(LoginCacheKeys.lastEmailLoginTime))
        const wait = last > 0 ? last + EMAIL_COOLDOWN_MS - Date.now() : 0
        if (wait > 0 && storage.getItem(LoginCacheKeys.email) === trimmed) throw new SigilError(tryAgainAfter(wait), 'RATE_LIMITED')
        chainId = options.chainId()
        const { action } = await frame().request('CONNECT_EMAIL', { email: trimmed })
        rememberSocial(undefined)
        storage.setItem(LoginCacheKeys.email, trimmed)
        if (action === 'VERIFY_OTP') storage.setItem(LoginCacheKeys.lastEmailLoginTime, String(Date.now()))
        return action
      },
      async getSocialRedirectUri(provider: string, redirectOptions?: { returnUrl?: string }) {
        chainId = options.chainId()
        const { uri } = await frame().request('GET_SOCIAL_REDIRECT_URI', {
          provider,
          ...(redirectOptions?.returnUrl ? { returnUrl: redirectOptions.returnUrl } : {}),
        })
        // Kept for a full-page login: the page that comes back knows which provider it was.
        rememberSocial({ provider })
        return uri
      },
      async connectSocial(uri: string, connectOptions?: { signal?: AbortSignal }) {
        const signal = connectOptions?.signal
        const done = await untilDone(() => frame().request('CONNECT_SOCIAL', { uri }, signal ? { signal } : {}), signal)
        const login: SocialLogin = { provider: done.provider, ...(done.userName ? { userName: done.userName } : {}) }
        rememberSocial(login)
        return login
      },
      async getFarcasterUri() {
        chainId = options.chainId()
        const { url } = await frame().request('GET_FARCASTER_URI')
        storage.setItem(LoginCacheKeys.farcasterUrl, url)
        return url
      },
      async connectFarcaster(connectOptions?: { signal?: AbortSignal; onRefused?: (reason: string) => void }) {
        const signal = connectOptions?.signal
        const { userName } = await untilDone(
          () => frame().request('CONNECT_FARCASTER', undefined, signal ? { signal } : {}),
          signal,
          ({ refused }) => {
            if (refused) connectOptions?.onRefused?.(refused)
          },
        )
        const login: SocialLogin = { provider: 'farcaster', ...(userName ? { userName } : {}) }
        rememberSocial(login)
        storage.removeItem(LoginCacheKeys.farcasterUrl)
        return login
      },
      async connectDevice() {
        await frame().request('CONNECT_DEVICE')
        storage.setItem(LoginCacheKeys.lastEmailLoginTime, String(Date.now()))
      },
      async connectOtp(otp: string) {
        if (!/^\d{6}$/.test(otp)) throw new SigilError(errors.invalidOtp, 'INVALID_OTP')
        await frame().request('CONNECT_OTP', { otp })
      },
      async updateEmail(email: string) {
        if (!EMAIL_RE.test(email.trim())) throw new SigilError(errors.invalidEmail, 'INVALID_EMAIL')
        return (await frame().request('UPDATE_EMAIL', { email: email.trim() })).action
      },
      async updateEmailPrimaryOtp(otp: string) {
        if (!/^\d{6}$/.test(otp)) throw new SigilError(errors.invalidOtp, 'INVALID_OTP')
        await frame().request('UPDATE_EMAIL_PRIMARY_OTP', { otp })
      },
      async updateEmailSecondaryOtp(otp: string) {
        if (!/^\d{6}$/.test(otp)) throw new SigilError(errors.invalidOtp, 'INVALID_OTP')
        const { newEmail } = await frame().request('UPDATE_EMAIL_SECONDARY_OTP', { otp })
        storage.setItem(LoginCacheKeys.email, newEmail)
        if (user) user = { ...user, email: newEmail }
        return newEmail
      },
      async exportKeys(exportOptions?: { signal?: AbortSignal }) {
        // The keys never come here: the frame shows them itself and only says when the user is done.
        await frame().request('EXPORT_KEYS', undefined, { timeoutMs: 0, ...(exportOptions?.signal ? { signal: exportOptions.signal } : {}) })
      },
      showFrame: (rect) => bridge?.show(rect),
    },
  }
}
