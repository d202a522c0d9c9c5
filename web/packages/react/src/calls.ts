/*
 * @sigil/react/calls: EIP-5792 hooks in wagmi's shapes (useSendCalls, useCallsStatus,
 * useCapabilities). An entry of its own, so a page that does not batch calls never loads them,
 * and one that does loads them with the part of the page that uses them.
 */
import { useCallback, useEffect, useMemo, useState } from 'react'
import { toSigilError, type CallsStatus, type SigilError, type SigilState, type WalletCapabilities } from '@sigil/core'
import type { CallsChainId, SendCallsParameters } from '@sigil/core/calls'
import { useAppKitSelector, useInstance } from './hooks.js'

export type { CallsStatus, WalletCapabilities } from '@sigil/core'
export type { CallsChainId, SendCallsParameters } from '@sigil/core/calls'

/** The EIP-5792 actions: loaded with the first hook that uses them, never with the page. */
const callsActions = () => import('@sigil/core/calls')

export interface UseSendCalls {
  /** Sends the calls (see `sendCalls` of `@sigil/core/calls`); resolves to the bundle's id, or undefined when it failed (`error` says why). */
  sendCalls(params: SendCallsParameters): Promise<string | undefined>
  /** The same, rejecting with the error (EIP-5792's 57xx classes, 4001 when declined, …). */
  sendCallsAsync(params: SendCallsParameters): Promise<string>
  /** The id of the last bundle sent: for useCallsStatus. */
  data: string | undefined
  error: SigilError | undefined
  isPending: boolean
  reset(): void
}

interface Query<T> {
  data: T | undefined
  error: SigilError | undefined
  isPending: boolean
}

const idle = { data: undefined, error: undefined, isPending: false }

/**
 * Sends EIP-5792 calls from the connected eip155 account (wagmi's `useSendCalls` shape): one
 * atomic `wallet_sendCalls` where the wallet can, else one transaction after the other under an
 * id of Sigil's, unless `atomicRequired`.
 */
export function useSendCalls(): UseSendCalls {
  const appKit = useInstance()
  const [state, setState] = useState<Query<string>>(idle)
  const sendCallsAsync = useCallback(
    async (params: SendCallsParameters) => {
      setState({ data: undefined, error: undefined, isPending: true })
      try {
        const { id } = await (await callsActions()).sendCalls(appKit.client.context, params)
        setState({ data: id, error: undefined, isPending: false })
        return id
      } catch (cause) {
        const error = toSigilError(cause)
        setState({ data: undefined, error, isPending: false })
        throw error
      }
    },
    [appKit],
  )
  const sendCalls = useCallback((params: SendCallsParameters) => sendCallsAsync(params).catch(() => undefined), [sendCallsAsync])
  const reset = useCallback(() => setState(idle), [])
  return useMemo(() => ({ ...state, sendCalls, sendCallsAsync, reset }), [state, sendCalls, sendCallsAsync, reset])
}

export interface UseCallsStatusOptions {
  /** Asks again every `intervalMs` until the status is final (200 and above). */
  pollUntilFinal?: boolean
  /** Default 1000. */
  intervalMs?: number
}

export interface UseCallsStatus extends Query<CallsStatus> {
  refetch(): void
}

/** A bundle's EIP-5792 status (wagmi's `useCallsStatus` shape); nothing is asked without an id. */
export function useCallsStatus(id: string | undefined, options: UseCallsStatusOptions = {}): UseCallsStatus {
  const appKit = useInstance()
  const { pollUntilFinal = false, intervalMs = 1000 } = options
  const [state, setState] = useState<Query<CallsStatus>>(idle)
  const [round, setRound] = useState(0)
  // biome-ignore lint/correctness/useExhaustiveDependencies: `round` is how refetch asks again
  useEffect(() => {
    if (!id) {
      setState(idle)
      return
    }
    let stopped = false
    let timer: ReturnType<typeof setTimeout> | undefined
    setState((s) => ({ ...s, isPending: s.data === undefined }))
    const read = async () => {
      try {
        const status = await (await callsActions()).getCallsStatus(appKit.client.context, { id })
        if (stopped) return
        setState({ data: status, error: undefined, isPending: false })
        if (pollUntilFinal && status.status < 200) timer = setTimeout(() => void read(), intervalMs)
      } catch (error) {
        if (!stopped) setState({ data: undefined, error: toSigilError(error), isPending: false })
      }
    }
    void read()
    return () => {
      stopped = true
      clearTimeout(timer)
    }
  }, [appKit, id, pollUntilFinal, intervalMs, round])
  const refetch = useCallback(() => setRound((n) => n + 1), [])
  return useMemo(() => ({ ...state, refetch }), [state, refetch])
}

export interface UseCapabilitiesParameters {
  /** The account; the connected one by default. */
  address?: string
  /** The chains to ask about; every chain the wallet knows by default. */
  chainIds?: readonly CallsChainId[]
}

export interface UseCapabilities extends Query<WalletCapabilities> {
  refetch(): void
}

const selectEvmAccount = (s: SigilState) => s.chains.eip155?.account.address

/**
 * What the connected wallet can do (EIP-5792 `wallet_getCapabilities`, wagmi's
 * `useCapabilities` shape): `{}` when it cannot say; asked again when the account changes.
 */
export function useCapabilities(params: UseCapabilitiesParameters = {}): UseCapabilities {
  const appKit = useInstance()
  const connected = useAppKitSelector(selectEvmAccount)
  const { address } = params
  const chains = params.chainIds?.join(',')
  const [state, setState] = useState<Query<WalletCapabilities>>(idle)
  const [round, setRound] = useState(0)
  // biome-ignore lint/correctness/useExhaustiveDependencies: `round` is how refetch asks again
  useEffect(() => {
    if (!connected) {
      setState(idle)
      return
    }
    let stopped = false
    setState((s) => ({ ...s, isPending: true }))
    const chainIds = chains ? (chains.split(',') as CallsChainId[]) : undefined
    callsActions()
      .then((m) => m.getCapabilities(appKit.client.context, { ...(address ? { address } : {}), ...(chainIds ? { chainIds } : {}) }))
      .then(
        (data) => !stopped && setState({ data, error: undefined, isPending: false }),
        (error: unknown) => !stopped && setState({ data: undefined, error: toSigilError(error), isPending: false }),
      )
    return () => {
      stopped = true
    }
  }, [appKit, connected, address, chains, round])
  const refetch = useCallback(() => setRound((n) => n + 1), [])
  return useMemo(() => ({ ...state, refetch }), [state, refetch])
}
