import type { ChainNamespace, SigilState } from '@sigil/core'
import { connectFamilies, interleaveWallets } from '@sigil/core/wallet-list'
import { useMemo } from 'react'
import { useModal, useStore, useWalletPages } from '../../context.js'

const selectNetworks = (s: SigilState) => s.networks
/** The families listed, as one string (a stable value for the store selector). */
const selectFamilies = (s: SigilState) => connectFamilies(s).join(' ')

/**
 * The chain families the Connect view lists (the page's, or the one the visitor connects
 * further), and the directory's first wallets of each, taken from each in turn; `loading` while
 * a family's first page is not there yet.
 */
export function useFamilyWallets() {
  const { directory } = useModal()
  const networks = useStore(selectNetworks)
  const families = useStore(selectFamilies)
  const namespaces = useMemo(() => new Set(families.split(' ') as ChainNamespace[]), [families])
  const params = useMemo(() => [...namespaces].map((ns) => directory.familyParams(ns, networks)), [directory, namespaces, networks])
  const pages = useWalletPages(params)
  const wallets = useMemo(() => interleaveWallets(pages.map((entry) => entry.page?.data ?? [])), [pages])
  return { namespaces, wallets, loading: pages.some((entry) => entry.loading && !entry.page) }
}

/** Rows standing in for wallets still loading. */
export function LoadingRows() {
  return [0, 1, 2].map((i) => (
    <li key={`skeleton-${i}`} aria-hidden="true">
      <div className="row" style={{ cursor: 'default' }}>
        <span className="img" data-state="loading" />
      </div>
    </li>
  ))
}
