/*
 * The frame's message handling: requests from the host page are accepted only from the parent
 * window on one of the project's allowed origins (the server writes them into the page), are
 * validated with the shared zod schemas, and get exactly one RESPONSE each, validated before it
 * is posted. Unsafe RPC requests wait for the user's approval in this frame's own view.
 */
import { messages } from '@sigil/core/messages'
import { AppRequest, FrameMessage, originAllowed, ResultOf, rpcSafety, RPC_NOT_ALLOWED, type AppRequestType, type FrameUser } from '@sigil/core/frame-messages'
import { z } from 'zod'
import { api, ApiError, type ApiUser, type ChainError, type LoginClaim, session } from './api.js'
import { batchTokens, type HostNames, stripHidden, type Tokens } from './describe.js'
import { m, setLocale } from './words.js'

const HEARTBEAT_MS = 5_000
const VERSION = '0.1.0'
/**
 * Once the server says the person is back from the provider, how long the login window's
 * message (with the claim secret) may take to arrive.
 */
const RETURNED_WAIT_MS = 5_000

/**
 * The login window's message, from the server's own page on this origin: a social login came
 * back (with the claim secret when it succeeded). Only pages of this origin can send it, and
 * only this origin's frames can read it.
 */
const LoginReturned = z.object({
  type: z.literal('SIGIL_SOCIAL_RETURNED'),
  state: z.string().regex(/^[A-Za-z0-9_-]{1,256}$/),
  claim: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,256}$/)
    .optional(),
})

/** The login state a URI names: the provider's URL (`state`), a return URL (`sigil_social`) or the bare state. */
function stateOf(uri: string): string | undefined {
  try {
    const url = new URL(uri)
    return url.searchParams.get('sigil_social') ?? url.searchParams.get('state') ?? undefined
  } catch {
    return uri || undefined
  }
}

/** The claim secret a full-page login's return URL carries. */
function claimOf(uri: string): string | undefined {
  try {
    return new URL(uri).searchParams.get('sigil_claim') ?? undefined
  } catch {
    return undefined
  }
}

export interface Approval {
  id: string
  method: string
  params: unknown
  chainId: string
  busy: boolean
  /** The symbol and decimals of the tokens a batch moves, as the chain answered. */
  tokens?: Tokens
}

/** ERC-20 `symbol()` and `decimals()`. */
const SYMBOL = '0x95d89b41'
const DECIMALS = '0x313ce567'

/** An ABI-encoded string (a `symbol()` answer): its text, or undefined. */
function abiString(hex: unknown): string | undefined {
  if (typeof hex !== 'string' || !/^0x[0-9a-fA-F]{192,}$/.test(hex)) return undefined
  const length = Number.parseInt(hex.slice(66, 130), 16)
  const bytes = hex.slice(130, 130 + length * 2)
  if (!length || length > 32 || bytes.length !== length * 2) return undefined
  const text = new TextDecoder().decode(Uint8Array.from(bytes.match(/../g) ?? [], (b) => Number.parseInt(b, 16)))
  return /^[\p{L}\p{N}._-]{1,12}$/u.test(text) ? text : undefined
}

/** The key export the user runs in this frame: a code to their email, then the keys, shown here only. */
export interface KeyExport {
  step: 'start' | 'code' | 'keys'
  busy: boolean
  error?: string
  keys?: { eip155: string; solana: string }
}

export interface FrameState {
  approval: Approval | undefined
  keyExport: KeyExport | undefined
  appName: string | undefined
  /** The host page's names for its networks (the frame names those it knows itself). */
  networkNames: HostNames
  themeMode: 'light' | 'dark'
  /** The locale whose words show (the modal's). */
  locale: string
}

type Listener = () => void

export interface FrameController {
  getState(): FrameState
  subscribe(listener: Listener): () => void
  approve(): void
  reject(): void
  /** Key export: ask for the code, show the keys with it, or finish (the keys are forgotten). */
  exportSendCode(): void
  exportShow(otp: string): void
  exportDone(): void
  /** The view needs `height` CSS pixels at the frame's present width: the host is told (FRAME_HEIGHT) when it changed, and at each showing. */
  reportHeight(height: number): void
}

class RequestError extends Error {
  constructor(
    message: string,
    readonly code?: number,
  ) {
    super(message)
  }
}

/** The chain's refusal goes to the page as that JSON-RPC error, with the node's code and words. */
function answer(reply: { result: unknown } | { error: ChainError }): { result: unknown } {
  if ('error' in reply) throw new RequestError(reply.error.message, reply.error.code)
  return { result: reply.result }
}

export function startFrame(win: Window = window): FrameController {
  const params = new URLSearchParams(win.location.search)
  const logger = params.get('enableLogger') === 'true'
  const log = (...args: unknown[]) => (logger ? console.warn('[sigil frame]', ...args) : console.debug('[sigil frame]', ...args))
  const meta = win.document.querySelector('meta[name="sigil-allowed-origins"]')?.getAttribute('content') ?? ''
  const allowed = meta.startsWith('__') ? [] : meta.split(/\s+/).filter(Boolean)
  let chainId = params.get('chainId') || 'eip155:1'
  let email: string | undefined
  // The Farcaster channel this frame waits on. (Its URL for the app, which the host shows as a
  // QR code, names the channel too, as the Farcaster protocol has it; the session it yields
  // stays here.)
  let farcasterChannel: string | undefined
  let state: FrameState = { approval: undefined, keyExport: undefined, appName: undefined, networkNames: new Map(), themeMode: 'light', locale: 'en' }
  let exportDone: (() => void) | undefined
  const listeners = new Set<Listener>()
  const set = (patch: Partial<FrameState>) => {
    state = { ...state, ...patch }
    for (const l of [...listeners]) l()
  }
  /** Shows the frame in the modal's locale (negotiated); its words re-render once loaded. */
  const applyLocale = (requested: string) =>
    void setLocale(requested, win.document).then(
      (locale) => set({ locale }),
      () => undefined,
    )
  const requestedLocale = params.get('locale')
  if (requestedLocale) applyLocale(requestedLocale)
  let approvalDone: ((ok: boolean) => void) | undefined
  /** Login windows that came back: state -> claim secret (null: it failed, the server says why). */
  const returned = new Map<string, string | null>()
  const returnListeners = new Set<() => void>()
  /** Resolves true once the login window of `state` came back, false after `ms` or on abort. */
  const untilReturned = (state: string, ms: number, signal?: AbortSignal) =>
    new Promise<boolean>((resolve) => {
      const done = (heard: boolean) => {
        clearTimeout(timer)
        returnListeners.delete(check)
        signal?.removeEventListener('abort', stop)
        resolve(heard)
      }
      const check = () => {
        if (returned.has(state)) done(true)
      }
      const stop = () => done(false)
      const timer = setTimeout(stop, ms)
      signal?.addEventListener('abort', stop, { once: true })
      returnListeners.add(check)
      check()
    })

  const parentOrigin = (() => {
    const ancestors = (win.location as Location & { ancestorOrigins?: DOMStringList }).ancestorOrigins
    const first = ancestors?.length ? ancestors[0] : undefined
    if (first) return first
    try {
      return win.document.referrer ? new URL(win.document.referrer).origin : undefined
    } catch {
      return undefined
    }
  })()

  const post = (message: FrameMessage, origin: string) => {
    const checked = FrameMessage.safeParse(message)
    if (!checked.success) {
      log('refused to post an invalid message')
      return
    }
    win.parent.postMessage(checked.data, origin)
  }

  /**
   * What the embedded EVM account can be on each chain (EIP-5792 `atomic` per numeric chain id:
   * `supported` once delegated, `ready` before, `unsupported` where the server has no smart
   * account), asked as a smart account whatever the user prefers; none before login or when
   * the server cannot say (the spec's fallbacks: no networks, EOA).
   */
  const smartAccountStatus = async (address: string): Promise<Map<number, string>> => {
    if (!address.startsWith('0x') || !chainId.startsWith('eip155:')) return new Map()
    try {
      const reply = await api.rpc(chainId, 'wallet_getCapabilities', [address], 'smartAccount')
      if ('error' in reply || !reply.result || typeof reply.result !== 'object') return new Map()
      return new Map(
        Object.entries(reply.result as Record<string, { atomic?: { status?: unknown } }>).flatMap(([id, c]) =>
          /^0x[0-9a-f]+$/i.test(id) && typeof c?.atomic?.status === 'string' ? [[Number.parseInt(id, 16), c.atomic.status] as const] : [],
        ),
      )
    } catch {
      return new Map()
    }
  }
  const enabledIn = (status: Map<number, string>) => [...status].filter(([, s]) => s !== 'unsupported').map(([id]) => id)
  /** The current chain's numeric id (NaN off EVM). */
  const chainNumber = () => Number(chainId.split(':')[1])
  /** The account type calls are sent as on the current chain: the preference where it can be a smart account, else EOA. */
  const accountTypeOn = (status: Map<number, string>): 'eoa' | 'smartAccount' =>
    session.preferredAccountType() === 'smartAccount' && enabledIn(status).includes(chainNumber()) ? 'smartAccount' : 'eoa'

  const userOf = async (u: ApiUser): Promise<FrameUser> => {
    const evm = u.accounts.find((a) => a.namespace === 'eip155') ?? u.accounts[0]
    const address = evm?.address ?? ''
    const status = evm?.namespace === 'eip155' ? await smartAccountStatus(address) : new Map<number, string>()
    const type = evm?.namespace === 'eip155' ? accountTypeOn(status) : (evm?.type ?? 'eoa')
    return {
      ...(u.email ? { email: u.email } : {}),
      address,
      chainId,
      // One address is both: the EOA, and the smart account it is delegated to (EIP-7702).
      accounts: u.accounts.map((a) => (a.namespace === 'eip155' ? { ...a, type } : a)),
      preferredAccountType: type,
      smartAccountDeployed: status.get(chainNumber()) === 'supported',
    }
  }

  const loggedIn = () => {
    if (!session.token()) throw new RequestError(m.notLoggedIn)
  }

  /**
   * One claim of a social or Farcaster login: pending, back (the claim secret is needed), or the
   * session, kept here (never posted to the host). A login the person cancelled at the provider
   * answers as a user rejection (4001).
   */
  const claim = async (ask: Promise<LoginClaim>): Promise<LoginClaim> => {
    let answer: LoginClaim
    try {
      answer = await ask
    } catch (error) {
      if (error instanceof ApiError && error.code === 'login_cancelled') throw new RequestError(error.message, 4001)
      throw error
    }
    if (answer.status === 'connected') {
      session.setToken(answer.token)
      email = answer.user.email
    }
    return answer
  }

  /**
   * A social login: with the claim secret of a full-page login's return URL, or the one the
   * login window sent here. Until the window is back, the server is asked meanwhile (it waits
   * up to 20 s, and says when the login failed).
   */
  const connectSocial = async (uri: string): Promise<LoginClaim> => {
    const state = stateOf(uri)
    if (!state) throw new RequestError(m.loginUnknown)
    const withClaim = () => claim(api.socialConnect(uri, claimOf(uri) ?? returned.get(state) ?? undefined))
    if (claimOf(uri) || returned.has(state)) return withClaim()
    const asking = new AbortController()
    const server = claim(api.socialConnect(uri, undefined, asking.signal))
    server.catch(() => undefined)
    const heard = untilReturned(state, 60_000, asking.signal).then((back) => (back ? ('heard' as const) : undefined))
    const first = await Promise.race([heard, server])
    asking.abort()
    if (first === 'heard') return withClaim()
    if (first?.status !== 'returned') return first ?? { status: 'pending' }
    // Back at the provider's end, but the window's message has not come (yet).
    if (!(await untilReturned(state, RETURNED_WAIT_MS))) throw new RequestError(m.loginWindowLost)
    return withClaim()
  }

  /** The tokens' symbol and decimals, read from the chain; those it does not answer are left out. */
  const readTokens = async (chain: string, addresses: string[]): Promise<Tokens> => {
    const read = async (to: string, data: string) => {
      const reply = await api.rpc(chain, 'eth_call', [{ to, data }, 'latest']).catch(() => undefined)
      return reply && 'result' in reply ? reply.result : undefined
    }
    const found = await Promise.all(
      addresses.slice(0, 8).map(async (address) => {
        const [symbol, decimals] = await Promise.all([read(address, SYMBOL), read(address, DECIMALS)])
        const places = typeof decimals === 'string' && /^0x[0-9a-fA-F]{1,64}$/.test(decimals) ? Number(BigInt(decimals)) : Number.NaN
        const name = stripHidden(abiString(symbol) ?? '').text
        return name && places >= 0 && places <= 36 ? ([address, { symbol: name, decimals: places }] as const) : undefined
      }),
    )
    return new Map(found.filter((f) => f !== undefined))
  }

  const waitForApproval = (request: Approval) =>
    new Promise<boolean>((resolve) => {
      approvalDone = resolve
      set({ approval: request })
    })

  const handle = async (request: AppRequest): Promise<unknown> => {
    switch (request.type) {
      case 'CONNECT_EMAIL': {
        email = request.payload.email
        // The modal's locale now: the code or link goes out in it (the words follow once loaded).
        if (request.payload.locale) applyLocale(request.payload.locale)
        return api.connectEmail(email)
      }
      case 'CONNECT_DEVICE':
        if (!email) throw new RequestError(m.notLoggedIn)
        return api.connectDevice(email)
      case 'CONNECT_OTP': {
        if (!email) throw new RequestError(m.notLoggedIn)
        const { token } = await api.connectOtp(email, request.payload.otp)
        session.setToken(token)
        return {}
      }
      case 'GET_SOCIAL_REDIRECT_URI':
        return api.socialRedirect(request.payload.provider, request.payload.returnUrl, params.get('projectId') ?? undefined)
      case 'CONNECT_SOCIAL': {
        const done = await connectSocial(request.payload.uri)
        if (done.status !== 'connected') return { pending: true }
        return { ...(await userOf(done.user)), provider: done.provider, ...(done.userName ? { userName: done.userName } : {}) }
      }
      case 'GET_FARCASTER_URI': {
        const { url, channelToken } = await api.farcasterUri()
        farcasterChannel = channelToken
        return { url }
      }
      case 'CONNECT_FARCASTER': {
        if (!farcasterChannel) throw new RequestError(m.noFarcasterChannel)
        const done = await claim(api.farcasterConnect(farcasterChannel))
        if (done.status === 'pending') return { pending: true, ...(done.refused ? { refused: done.refused.slice(0, 1000) } : {}) }
        if (done.status !== 'connected') return { pending: true }
        farcasterChannel = undefined
        return { userName: done.userName ?? '' }
      }
      case 'GET_USER': {
        loggedIn()
        if (request.payload?.chainId !== undefined) chainId = String(request.payload.chainId)
        return userOf(await api.user())
      }
      case 'IS_CONNECTED': {
        if (!session.token()) return { isConnected: false }
        const { isConnected } = await api.isConnected()
        if (!isConnected) session.setToken(undefined)
        return { isConnected }
      }
      case 'SIGN_OUT': {
        if (session.token()) await api.signOut().catch(() => undefined)
        session.setToken(undefined)
        email = undefined
        farcasterChannel = undefined
        return {}
      }
      case 'SWITCH_NETWORK':
        chainId = String(request.payload.chainId)
        return { chainId }
      case 'GET_CHAIN_ID':
        return { chainId }
      case 'GET_SMART_ACCOUNT_ENABLED_NETWORKS': {
        if (!session.token()) return { smartAccountEnabledNetworks: [] }
        const evm = (await api.user()).accounts.find((a) => a.namespace === 'eip155')
        return { smartAccountEnabledNetworks: evm ? enabledIn(await smartAccountStatus(evm.address)) : [] }
      }
      case 'INIT_SMART_ACCOUNT': {
        // The smart account is the EOA's own address (EIP-7702): it is delegated on its first batch.
        loggedIn()
        return { address: (await userOf(await api.user())).address }
      }
      case 'SET_PREFERRED_ACCOUNT': {
        loggedIn()
        // The address stays; only how calls are sent changes. Where no smart account can be,
        // the answer is EOA (the spec's fallback).
        session.setPreferredAccountType(request.payload.type === 'smartAccount' ? 'smartAccount' : 'eoa')
        const user = await userOf(await api.user())
        return { type: user.preferredAccountType, address: user.address }
      }
      case 'RPC_REQUEST': {
        loggedIn()
        const { method, params: rpcParams } = request.payload
        const chain = request.payload.chainId !== undefined ? String(request.payload.chainId) : chainId
        const safety = rpcSafety(method)
        if (safety === 'not-allowed') throw new RequestError(RPC_NOT_ALLOWED, 4200)
        if (safety === 'unsafe') {
          const tokens = method === 'wallet_sendCalls' ? await readTokens(chain, batchTokens(rpcParams)) : undefined
          const ok = await waitForApproval({ id: request.id, method, params: rpcParams, chainId: chain, busy: false, ...(tokens ? { tokens } : {}) })
          if (!ok) {
            set({ approval: undefined })
            throw new RequestError(messages.rpc[4001] as string, 4001)
          }
          set({ approval: state.approval && { ...state.approval, busy: true } })
          try {
            return answer(await api.rpc(chain, method, rpcParams))
          } finally {
            set({ approval: undefined })
          }
        }
        return answer(await api.rpc(chain, method, rpcParams))
      }
      case 'UPDATE_EMAIL':
        loggedIn()
        return api.updateEmail(request.payload.email)
      case 'UPDATE_EMAIL_PRIMARY_OTP':
        loggedIn()
        return api.updateEmailPrimary(request.payload.otp)
      case 'UPDATE_EMAIL_SECONDARY_OTP':
        loggedIn()
        return api.updateEmailSecondary(request.payload.otp)
      case 'SYNC_THEME':
        set({ themeMode: request.payload.themeMode })
        win.document.documentElement.dataset.theme = request.payload.themeMode
        return {}
      case 'SYNC_DAPP_DATA': {
        // The app's name heads the approval view: without characters that would make it read otherwise.
        const name = request.payload.metadata?.name
        // The networks' names too: they say on which network a request is (see describe.ts).
        const networkNames = new Map(
          (request.payload.networks ?? []).flatMap(({ caipNetworkId, name: networkName }) => {
            const shown = stripHidden(networkName).text.trim()
            return shown ? [[caipNetworkId, shown] as const] : []
          }),
        )
        set({ appName: name ? stripHidden(name).text || undefined : undefined, networkNames })
        return {}
      }
      case 'EXPORT_KEYS': {
        loggedIn()
        exportDone?.()
        await new Promise<void>((resolve) => {
          exportDone = resolve
          set({ keyExport: { step: 'start', busy: false } })
        })
        return {}
      }
      case 'RELOAD':
        setTimeout(() => win.location.reload(), 0)
        return {}
      default:
        throw new RequestError(m.unsupportedRequest)
    }
  }

  win.addEventListener('message', (event: MessageEvent) => {
    if (event.origin === win.location.origin && event.source !== win.parent) {
      const back = LoginReturned.safeParse(event.data)
      if (back.success) {
        returned.set(back.data.state, back.data.claim ?? null)
        for (const l of [...returnListeners]) l()
      }
      return
    }
    if (event.source !== win.parent || win.parent === win || !originAllowed(allowed, event.origin)) {
      log('dropped a message from', event.origin)
      return
    }
    const parsed = AppRequest.safeParse(event.data)
    if (!parsed.success) {
      log('dropped an invalid message')
      const id = (event.data as { id?: unknown } | null)?.id
      if (typeof id === 'string' && /^[A-Za-z0-9-]{8,64}$/.test(id))
        post({ id, type: 'RESPONSE', ok: false, error: { message: m.invalidMessage } }, event.origin)
      return
    }
    const request = parsed.data
    const origin = event.origin
    const type: AppRequestType = request.type
    handle(request).then(
      (payload) => {
        const result = (ResultOf[type] as z.ZodType).safeParse(payload ?? {})
        if (result.success) post({ id: request.id, type: 'RESPONSE', ok: true, payload: result.data }, origin)
        else post({ id: request.id, type: 'RESPONSE', ok: false, error: { message: messages.errors.anErrorOccurred } }, origin)
      },
      (error: unknown) => {
        const message = error instanceof Error && error.message ? error.message : messages.errors.anErrorOccurred
        const code = error instanceof RequestError ? error.code : undefined
        post({ id: request.id, type: 'RESPONSE', ok: false, error: { message: message.slice(0, 1000), ...(code !== undefined ? { code } : {}) } }, origin)
      },
    )
  })

  const announce = async () => {
    // A stored session gets a fresh token (rotation); a dead one is dropped.
    if (session.token()) {
      try {
        session.setToken((await api.refresh()).token)
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) session.setToken(undefined)
      }
    }
    if (!parentOrigin || !originAllowed(allowed, parentOrigin)) {
      log('not embedded by an allowed origin')
      return
    }
    post({ type: 'FRAME_READY', payload: { version: VERSION } }, parentOrigin)
    setInterval(() => post({ type: 'HEARTBEAT' }, parentOrigin), HEARTBEAT_MS)
  }
  void announce()

  const finish = (ok: boolean) => {
    const done = approvalDone
    approvalDone = undefined
    done?.(ok)
  }
  const exportStep = async (task: () => Promise<Partial<KeyExport>>) => {
    const current = state.keyExport
    if (!current || current.busy) return
    set({ keyExport: { step: current.step, busy: true } })
    try {
      set({ keyExport: { ...current, busy: false, error: undefined, ...(await task()) } })
    } catch (error) {
      set({ keyExport: { ...current, busy: false, error: error instanceof Error ? error.message : messages.errors.anErrorOccurred } })
    }
  }
  let reported: number | undefined
  return {
    getState: () => state,
    reportHeight(height: number) {
      // Measured while the host shows the frame (a hidden frame has no width to lay out at);
      // each showing is told again (the host's view that shows it is a new one).
      if (win.innerWidth === 0) reported = undefined
      if (!parentOrigin || !originAllowed(allowed, parentOrigin) || win.innerWidth === 0) return
      const rounded = Math.min(10_000, Math.max(0, Math.ceil(height)))
      if (rounded === reported) return
      reported = rounded
      post({ type: 'FRAME_HEIGHT', payload: { height: rounded } }, parentOrigin)
    },
    exportSendCode: () =>
      void exportStep(async () => {
        await api.exportRequest()
        return { step: 'code' }
      }),
    exportShow: (otp: string) =>
      void exportStep(async () => {
        if (!/^\d{6}$/.test(otp.trim())) throw new Error(messages.errors.invalidOtp)
        return { step: 'keys', keys: await api.exportKeys(otp.trim()) }
      }),
    exportDone() {
      set({ keyExport: undefined })
      const done = exportDone
      exportDone = undefined
      done?.()
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    approve: () => finish(true),
    reject: () => finish(false),
  }
}
