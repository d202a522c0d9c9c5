import { errorText, formatUnits, type SigilState, type TokenBalance } from '@sigil/core'
import { loadSwapTokens, type SwapToken } from '@sigil/core/swap'
import { useEffect, useState } from 'react'
import { useModal, useStore } from '../../context.js'

const NONE: readonly TokenBalance[] = []
export const selectHeld = (s: SigilState): readonly TokenBalance[] => s.chains[s.activeNamespace]?.account.tokenBalance ?? NONE
export const selectNetwork = (s: SigilState) => s.activeCaipNetwork

/** The tokens the server can swap on the active network (asked again on another network), or why there are none. */
export function useSwapTokens(): { tokens: SwapToken[] | undefined; error: string | undefined } {
  const { client } = useModal()
  const network = useStore(selectNetwork).caipNetworkId
  const [answer, setAnswer] = useState<{ network: string; tokens?: SwapToken[]; error?: string }>()
  useEffect(() => {
    let live = true
    loadSwapTokens(client).then(
      (tokens) => live && setAnswer({ network, tokens }),
      (e: unknown) => live && setAnswer({ network, error: errorText(e) }),
    )
    return () => {
      live = false
    }
  }, [client, network])
  const current = answer?.network === network ? answer : undefined
  return { tokens: current?.tokens, error: current?.error }
}

/** A swap amount for people: the token's units, at most 6 decimals (rounded down). */
export function swapAmount(value: bigint, decimals: number): string {
  const step = 10n ** BigInt(Math.max(decimals - 6, 0))
  return formatUnits((value / step) * step, decimals)
}
