import { displayAddress, type SigilState } from '@sigil/core'
import { useEffect, useState } from 'react'
import { useModal, useStore } from './context.js'

const selectNamespace = (s: SigilState) => s.activeNamespace

/**
 * An address of the active namespace in its family's written form (EIP-55 for EVM; base58 and
 * bech32 are shown as the wallet gave them), from the namespace's adapter when it has a form of
 * its own; the address as given until the adapter answered.
 */
export function useDisplayAddress(address: string | undefined): string | undefined {
  const { client } = useModal()
  const namespace = useStore(selectNamespace)
  const [shown, setShown] = useState<{ from: string; to: string }>()
  useEffect(() => {
    if (!address) return
    let live = true
    displayAddress(client, address, namespace).then(
      (to) => live && setShown({ from: address, to }),
      () => undefined,
    )
    return () => {
      live = false
    }
  }, [client, namespace, address])
  return address && shown?.from === address ? shown.to : address
}
