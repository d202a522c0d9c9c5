/*
 * The embedded wallet's working part, loaded on first use (see ./auth.ts): the frame bridge,
 * the login steps and the login cache. The frame is a transport that knows no family: each
 * namespace the user has an account in gets its provider from its family (the adapter's session
 * capability) over it. Requests are safe (straight to the frame), unsafe (the frame asks the
 * user first; the modal shows its approval UI) or not allowed (refused here).
 */
import type { SessionBinding } from '../adapter.js'
import { errors } from '../messages/core.js'
import { isUserRejection, SigilError, toSigilError, tryAgainAfter } from '../errors.js'
import { transactionError } from '../features/send/errors.js'
import { FrameBridge, FRAME_SIGN_OUT_WAIT_MS } from '../frame/bridge.js'
import { FRAME_METHODS, rpcSafety, type FrameUser } from '../frame/messages.js'
import type { CaipNetwork, ChainNamespace } from '../types.js'
import {
  AUTH_CONNECTOR_ID,
  EMAIL_COOLDOWN_MS,
  LoginCacheKeys,
  socialLoginOf,
  type AuthConnectorOptions,
  type AuthImpl,
  type EmbeddedRequestEvent,
  type SocialLogin,
} from './auth.js'
import type { SessionTransport } from './transport.js'
import type { Connection, ConnectionAccount, ConnectorEvent, ConnectParams } from './types.js'

interface Emitters {
  emit(event: ConnectorEvent): void
  emitRequest(event: EmbeddedRequestEvent): void
}

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
/** The approved requests that send a transaction (a failure of these is a transaction not sent). */
const SENDING_METHODS = new Set(['eth_sendTransaction', 'wallet_sendCalls', 'eth_sendUserOperation', 'solana_signAndSendTransaction'])

/** How the views name the embedded wallet before its user's email or username is known. */
const EMBEDDED_WALLET_NAME = 'Embedded wallet'

export function createAuthImpl(options: AuthConnectorOptions, { emit, emitRequest }: Emitters): AuthImpl {
  const { storage } = options
  let bridge: FrameBridge | undefined
  let user: FrameUser | undefined
  /** The active network's CAIP-2 id as of the last login step or switch. */
  let chainId: string = options.chainId()
  /** The host's networks, as of the last connection. */
  let networks: readonly CaipNetwork[] = []
  /** Each connected namespace's family over the frame. */
  let bindings = new Map<ChainNamespace, SessionBinding>()

  const frame = () => {
    if (bridge) return bridge
    const created = new FrameBridge({
      frameUrl: options.frameUrl,
      projectId: options.projectId,
      chainId,
      version: options.version,
      ...(options.enableLogger ? { enableLogger: true } : {}),
      ...(options.locale?.() ? { locale: options.locale() } : {}),
      onHeight: (height) => emitRequest({ type: 'frame-height', height }),
    })
    bridge = created
    // Once ready, the frame learns whose page it serves and the modal's theme (for its approval view).
    void created.ready
      .then(async () => {
        const { theme } = options
        await syncDappData(created)
        if (theme) {
          const { themeMode, themeVariables } = theme()
          const variables = Object.fromEntries(Object.entries(themeVariables).filter((e): e is [string, string | number] => e[1] !== undefined))
          await created.request('SYNC_THEME', { themeMode, themeVariables: variables })
        }
      })
      .catch(() => undefined)
    return created
  }

  /** The host's networks by name, as the frame was last told them (its approval view names them). */
  let named: { caipNetworkId: string; name: string }[] = []
  const syncDappData = async (target: FrameBridge) => {
    const { dappData } = options
    if (!dappData) return
    await target.request('SYNC_DAPP_DATA', {
      ...(dappData.metadata ? { metadata: dappData.metadata } : {}),
      sdkType: dappData.sdkType,
      sdkVersion: options.version,
      projectId: options.projectId,
      ...(named.length ? { networks: named } : {}),
    })
  }
  /** The host's networks (as of a connection) by name, for the frame: told again when they changed. */
  const nameNetworks = (list: readonly CaipNetwork[]) => {
    const next = list
      .filter((n) => n.name)
      .slice(0, 100)
      .map(({ caipNetworkId, name }) => ({ caipNetworkId, name: name.slice(0, 64) }))
    if (JSON.stringify(next) === JSON.stringify(named)) return
    named = next
    const target = frame()
    void target.ready.then(() => syncDappData(target)).catch(() => undefined)
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
   * The user's accounts in every namespace the frame has one for and the host has a network and
   * a family for, each bound to its family over the frame. Each starts on the active network when
   * that is of its namespace, else on the host's first network of it (a Solana account on the
   * host's Solana network, not mainnet, while an EVM network is active).
   */
  const connection = async (u: FrameUser, params: Pick<ConnectParams, 'networks'>): Promise<Connection> => {
    networks = params.networks
    nameNetworks(networks)
    const next = new Map<ChainNamespace, SessionBinding>()
    const accounts: ConnectionAccount[] = []
    for (const namespace of new Set(u.accounts.map((a) => a.namespace))) {
      const network =
        networks.find((n) => n.caipNetworkId === chainId && n.chainNamespace === namespace) ?? networks.find((n) => n.chainNamespace === namespace)
      const family = network ? await options.families?.[namespace]?.load() : undefined
      if (!network || !family) continue
      const own = u.accounts.filter((a) => a.namespace === namespace).map((a) => ({ namespace, address: a.address, type: a.type, chainId: network.id }))
      accounts.push(...own)
      const binding = family.open(transport, { network, accounts: own })
      // A chain switched through the provider: the modal hears it.
      binding.subscribe?.((event) => {
        if ('chainId' in event) emit({ type: 'chainChanged', namespace, chainId: event.chainId })
      })
      next.set(namespace, binding)
    }
    bindings = next
    const social = socialLoginOf(storage)
    // The chains where the frame's server offers a smart account (the spec's fallback: none).
    const { smartAccountEnabledNetworks } = await frame()
      .request('GET_SMART_ACCOUNT_ENABLED_NETWORKS')
      .catch(() => ({ smartAccountEnabledNetworks: [] as number[] }))
    return {
      connectorId: AUTH_CONNECTOR_ID,
      accounts,
      smartAccountEnabledNetworks,
      walletInfo: { name: u.email ?? social?.userName ?? EMBEDDED_WALLET_NAME },
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
    let failure: { message: string; transaction: boolean } | undefined
    try {
      // The user takes the time they need to read and approve: no timeout.
      const { result } = await frame().request('RPC_REQUEST', payload, { timeoutMs: 0, signal: controller.signal })
      ok = true
      return result
    } catch (error) {
      // The page gets the node's error as it is; the modal says what it means (the spec's text).
      if (!controller.signal.aborted && !isUserRejection(error)) {
        failure = { message: (transactionError(error) ?? toSigilError(error)).message, transaction: SENDING_METHODS.has(method) }
      }
      throw error
    } finally {
      emitRequest({ type: 'approval-end', ok, ...(failure ? { failure } : {}) })
    }
  }

  /** The frame as a session transport: the user's accounts on the host's networks, requests through the frame. */
  const transport: SessionTransport = {
    peer: { connectorId: AUTH_CONNECTOR_ID, type: 'AUTH', name: EMBEDDED_WALLET_NAME },
    namespace(namespace) {
      const own = user?.accounts.filter((a) => a.namespace === namespace) ?? []
      if (!own.length) return undefined
      const chains = networks.filter((n) => n.chainNamespace === namespace).map((n) => n.caipNetworkId)
      return { chains, accounts: chains.flatMap((chain) => own.map((a) => `${chain}:${a.address}`)), methods: FRAME_METHODS }
    },
    request: (chain, method, params) => rpcRequest(method, params, chain),
    read: (chain, method, params) => rpcRequest(method, params, chain),
    async switchChain(chain) {
      await frame().request('SWITCH_NETWORK', { chainId: chain })
      chainId = chain
      storage.setItem(LoginCacheKeys.lastChain, chain)
    },
    // The frame keeps its own session: nothing to keep here.
    recall: () => undefined,
    remember: () => undefined,
  }

  const getUser = async () => {
    const u = await frame().request('GET_USER', { chainId })
    user = u
    return u
  }

  return {
    connector: {
      async connect(params) {
        const u = await getUser()
        remember(u.email)
        return connection(u, params)
      },
      async reconnect(params) {
        try {
          const { isConnected } = await frame().request('IS_CONNECTED')
          if (!isConnected) {
            forget()
            return undefined
          }
          return connection(await getUser(), params)
        } catch {
          forget()
          return undefined
        }
      },
      async disconnect() {
        const b = bridge
        const ending = bindings
        forget()
        bindings = new Map()
        if (!b) return
        // Sign-out waits at most 3 s: the local disconnect stands either way.
        await b.request('SIGN_OUT', undefined, { timeoutMs: FRAME_SIGN_OUT_WAIT_MS }).catch(() => undefined)
        for (const binding of ending.values()) binding.end?.()
      },
      getProvider: (namespace: ChainNamespace) => (user ? bindings.get(namespace)?.provider : undefined),
      async setPreferredAccountType(type) {
        const answer = await frame().request('SET_PREFERRED_ACCOUNT', { type })
        // The address stays (EIP-7702); the account the frame acts with takes the type.
        if (user)
          user = {
            ...user,
            preferredAccountType: answer.type,
            accounts: user.accounts.map((a) => (a.address.toLowerCase() === answer.address.toLowerCase() ? { ...a, type: answer.type } : a)),
          }
        return answer
      },
      async connectEmail(email: string) {
        const trimmed = email.trim()
        if (!EMAIL_RE.test(trimmed)) throw new SigilError(errors.invalidEmail, 'INVALID_EMAIL')
        const last = Number(storage.getItem(LoginCacheKeys.lastEmailLoginTime))
        const wait = last > 0 ? last + EMAIL_COOLDOWN_MS - Date.now() : 0
        if (wait > 0 && storage.getItem(LoginCacheKeys.email) === trimmed) throw new SigilError(tryAgainAfter(wait), 'RATE_LIMITED')
        chainId = options.chainId()
        const locale = options.locale?.()
        // The modal's locale goes with the request: the code or link is emailed in it.
        const { action } = await frame().request('CONNECT_EMAIL', { email: trimmed, ...(locale ? { locale } : {}) })
        rememberSocial(undefined)
        storage.setItem(LoginCacheKeys.email, trimmed)
        // A code or a device link went out: the server sends the next one 30 s later at the soonest.
        if (action !== 'CONNECT') storage.setItem(LoginCacheKeys.lastEmailLoginTime, String(Date.now()))
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
        const { action } = await frame().request('CONNECT_DEVICE')
        if (action === 'VERIFY_OTP') storage.setItem(LoginCacheKeys.lastEmailLoginTime, String(Date.now()))
        return action
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
