import { track, type SigilContext } from '../../context.js'
import { ErrorMessages, errorText } from '../../errors.js'
import { closeModal } from '../../modal.js'
import { isUnsupportedNetwork } from '../../networks.js'
import { showError } from '../../notification.js'
import { currentView, resetView } from '../../router.js'
import type { SigilState } from '../../store.js'
import type { CaipNetworkId, ChainNamespace } from '../../types.js'
import type { SIWXMessage, SIWXMessageData, SIWXMessageInput, SIWXSession, SiwxState } from './types.js'

/** The sign-in flow of spec section 4, driven by the connection state. */
export interface SiwxController {
  /** Creates the message, asks the wallet to sign it and stores the session (the server verifies it). */
  sign(): Promise<void>
  /** Cancel in the sign-in view: disconnects when sign-in is required, else closes; then resets to Connect. */
  cancel(): Promise<void>
  /** Revokes the current session; when sign-in is required the wallet is disconnected too. */
  signOut(): Promise<void>
  destroy(): void
}

export interface SiwxControllerDeps {
  disconnect(): Promise<void>
  signMessage(message: string): Promise<string>
}

interface Target {
  key: string
  namespace: ChainNamespace
  chainId: CaipNetworkId
  address: string
}

/** A prepared message older than this is replaced on Sign (its nonce might have expired). */
const PREPARED_MAX_AGE_MS = 5 * 60_000

/** The account sign-in applies to: connected, on a configured (non-placeholder) network. */
function targetOf(state: SigilState): Target | undefined {
  const chain = state.chains[state.activeNamespace]
  if (chain?.connectionStatus !== 'connected') return undefined
  const address = chain.account.address
  const network = chain.network.caipNetwork
  if (!address || !network || isUnsupportedNetwork(network)) return undefined
  if (!state.networks.some((n) => n.caipNetworkId === network.caipNetworkId)) return undefined
  return { key: `${network.caipNetworkId}:${address.toLowerCase()}`, namespace: state.activeNamespace, chainId: network.caipNetworkId, address }
}

function dataOf(message: SIWXMessage): SIWXMessageData {
  const { toString: _text, ...data } = message
  return data
}

export function createSiwxController(ctx: SigilContext, deps: SiwxControllerDeps): SiwxController {
  const { store } = ctx
  const siwx = ctx.options.siwx
  /** ConnectingSiwe for a `siweConfig`, else SIWXSignMessage. */
  const signView = siwx?.view ?? 'SIWXSignMessage'
  let target: Target | undefined
  let generation = 0
  let prepared: { key: string; at: number; message: Promise<SIWXMessage> } | undefined

  const setSiwx = (patch: Partial<SiwxState>) => store.setState((s) => ({ siwx: { ...s.siwx, ...patch } }))
  const required = () => siwx?.getRequired?.() === true

  const showSignView = () => {
    const wasOpen = store.getState().modal.open
    resetView(store, signView)
    if (!wasOpen) {
      store.setState((s) => ({ modal: { ...s.modal, open: true } }))
      track(ctx, 'MODAL_OPEN', { connected: true })
    }
  }

  /** The message input, with the account as the namespace's adapter states it ('Ethereum', EIP-55). */
  const messageFor = async (t: Target): Promise<SIWXMessage> => {
    if (!siwx) throw new Error('siwx is not configured')
    const account = await ctx.adapters[t.namespace]?.signInAccount?.(t.address)
    const input: SIWXMessageInput = account
      ? { accountAddress: account.address, chainId: t.chainId, accountLabel: account.label }
      : { accountAddress: t.address, chainId: t.chainId }
    return siwx.createMessage(input)
  }

  const prepare = (t: Target): Promise<SIWXMessage> => {
    const message = messageFor(t)
    prepared = { key: t.key, at: Date.now(), message }
    return message
  }

  /** Setup failed (sessions could not be read, no nonce): disconnect and start over at Connect. */
  const setupFailed = async (gen: number, error: unknown) => {
    if (gen !== generation) return
    prepared = undefined
    const reason = errorText(error)
    track(ctx, 'SIWX_AUTH_ERROR', { message: reason, stage: 'setup' })
    const wasOpen = store.getState().modal.open
    try {
      await deps.disconnect()
    } catch {
      // State is cleared either way.
    }
    resetView(store, 'Connect')
    if (wasOpen) store.setState((s) => ({ modal: { ...s.modal, open: true } }))
    setSiwx({ status: 'signed-out', session: undefined, error: reason })
    showError(store, ErrorMessages.authInitFailed)
  }

  /**
   * The chains a session of `t` may be on: its own; with `sessionScope: 'family'`, then the host's
   * other networks of its family.
   */
  const chainsFor = (namespace: ChainNamespace, chainId: CaipNetworkId): CaipNetworkId[] => {
    if (siwx?.sessionScope !== 'family') return [chainId]
    const family = store
      .getState()
      .networks.filter((n) => n.chainNamespace === namespace)
      .map((n) => n.caipNetworkId)
    return [chainId, ...family.filter((c) => c !== chainId)]
  }

  /** The stored sessions of `t`'s account that count on its chain (the first found, by chainsFor order). */
  const sessionsOf = async (t: Target): Promise<SIWXSession[]> => {
    if (!siwx) return []
    for (const chainId of chainsFor(t.namespace, t.chainId)) {
      const sessions = await siwx.getSessions(chainId, t.address)
      if (sessions.length) return sessions
    }
    return []
  }

  /** Ends the account's sessions on every chain of its family (a sign-out is not for one chain only). */
  const revokeAll = async (t: Pick<Target, 'namespace' | 'chainId' | 'address'>) => {
    if (!siwx) return
    const family = store
      .getState()
      .networks.filter((n) => n.chainNamespace === t.namespace)
      .map((n) => n.caipNetworkId)
    for (const chainId of [t.chainId, ...family.filter((c) => c !== t.chainId)]) await siwx.revokeSession(chainId, t.address)
  }

  const check = async (t: Target, gen: number) => {
    if (!siwx) return
    let sessions: SIWXSession[]
    try {
      sessions = await sessionsOf(t)
    } catch (error) {
      return setupFailed(gen, error)
    }
    if (gen !== generation) return
    const [session] = sessions
    if (session) {
      setSiwx({ status: 'signed-in', session, error: undefined })
      const state = store.getState()
      if (state.modal.open && currentView(state) === signView) closeModal(ctx, { force: true })
      return
    }
    showSignView()
    prepare(t).catch((error: unknown) => {
      if (prepared?.key === t.key) void setupFailed(gen, error)
    })
  }

  const onChange = (state: SigilState) => {
    const next = targetOf(state)
    if (next?.key === target?.key) return
    const previous = target
    target = next
    generation++
    prepared = undefined
    const hadSession = state.siwx.status === 'signed-in'
    setSiwx({ status: 'signed-out', session: undefined, error: undefined })
    if (!next) {
      if (previous && hadSession && siwx?.signOutOnDisconnect) revokeAll(previous).catch(() => undefined)
      return
    }
    void check(next, generation)
  }

  const unsubscribe = siwx ? store.subscribe((state) => onChange(state)) : () => undefined
  if (siwx) onChange(store.getState())

  return {
    async sign() {
      const t = target
      if (!siwx || !t) return
      const gen = generation
      setSiwx({ status: 'signing', error: undefined })
      try {
        const ready = prepared && prepared.key === t.key && Date.now() - prepared.at < PREPARED_MAX_AGE_MS ? prepared.message : undefined
        // A nonce is used once: whatever happens next, the next attempt gets a new message.
        prepared = undefined
        const message = await (ready ?? messageFor(t))
        const text = message.toString()
        const signature = await deps.signMessage(text)
        const session: SIWXSession = { data: dataOf(message), message: text, signature }
        await siwx.addSession(session)
        if (gen !== generation) return
        // Read the session back from where it is kept (the server's view of it).
        const stored = await siwx.getSessions(t.chainId, t.address).then(
          (list) => list[0],
          () => undefined,
        )
        if (gen !== generation) return
        setSiwx({ status: 'signed-in', session: stored ?? session, error: undefined })
        closeModal(ctx, { force: true })
        track(ctx, 'SIWX_AUTH_SUCCESS', { network: t.chainId })
      } catch (error) {
        if (gen !== generation) return
        const message = errorText(error)
        setSiwx({ status: 'signed-out', error: message })
        track(ctx, 'SIWX_AUTH_ERROR', { message, network: t.chainId })
        // The view stays (or comes back) with the error.
        const state = store.getState()
        if (!state.modal.open || currentView(state) !== signView) showSignView()
      }
    },

    async cancel() {
      generation++
      prepared = undefined
      track(ctx, 'CLICK_CANCEL_SIWX', { required: required() })
      setSiwx({ error: undefined })
      if (required()) {
        try {
          await deps.disconnect()
        } catch {
          // State is cleared either way.
        }
      } else {
        closeModal(ctx, { force: true })
      }
      resetView(store, 'Connect')
    },

    async signOut() {
      if (!siwx) return
      const data = store.getState().siwx.session?.data
      const chainId = data?.chainId ?? target?.chainId
      const address = data?.accountAddress ?? target?.address
      const namespace = target?.namespace ?? (chainId?.split(':')[0] as ChainNamespace | undefined)
      if (chainId && address && namespace) await revokeAll({ namespace, chainId, address })
      setSiwx({ status: 'signed-out', session: undefined, error: undefined })
      track(ctx, 'SIWX_SIGN_OUT')
      if (required() && target) await deps.disconnect()
    },

    destroy: unsubscribe,
  }
}
