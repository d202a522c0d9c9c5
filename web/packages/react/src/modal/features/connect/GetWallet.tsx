import type { ChainNamespace, SigilState } from '@sigil/core'
import { connectFamilies, installPlatform, interleaveWallets, walletInstallLink } from '@sigil/core/wallet-list'
import { useMemo } from 'react'
import { useMessages, useModal, useStore, useWalletPages } from '../../context.js'
import { Icons, RemoteImage } from '../../ui.js'

/** How many wallets the view suggests. */
const SUGGESTED = 6

const selectNetworks = (s: SigilState) => s.networks
const selectFamilies = (s: SigilState) => connectFamilies(s).join(' ')

/** The store link of a wallet on this device (app store on a phone, extension on a computer, else its site). */
export function useInstallLink() {
  return useMemo(() => {
    const platform = installPlatform(typeof navigator === 'undefined' ? '' : navigator.userAgent)
    return (wallet: Parameters<typeof walletInstallLink>[0]) => walletInstallLink(wallet, platform)
  }, [])
}

/**
 * GetWallet, for a visitor new to wallets: what a wallet is, in a sentence, and the directory's
 * first wallets of the page's chain families, each a link to where it is installed on this device.
 */
export function GetWalletView() {
  const { directory } = useModal()
  const m = useMessages().ui.getWallet
  const networks = useStore(selectNetworks)
  const families = useStore(selectFamilies)
  const params = useMemo(() => families.split(' ').map((ns) => directory.familyParams(ns as ChainNamespace, networks)), [directory, families, networks])
  const pages = useWalletPages(params)
  const installLink = useInstallLink()
  const wallets = useMemo(
    () =>
      interleaveWallets(pages.map((entry) => entry.page?.data ?? []))
        .map((wallet) => ({ wallet, link: installLink(wallet) }))
        .filter((w): w is { wallet: typeof w.wallet; link: string } => w.link !== undefined)
        .slice(0, SUGGESTED),
    [pages, installLink],
  )
  const loading = pages.some((entry) => entry.loading && !entry.page)
  return (
    <div className="scroll" data-testid="get-wallet-view">
      <p className="sub" style={{ marginBottom: 12 }}>
        {m.intro}
      </p>
      <ul className="list">
        {wallets.map(({ wallet, link }) => (
          <li key={wallet.id}>
            <a className="row" href={link} target="_blank" rel="noreferrer noopener">
              <RemoteImage src={directory.walletImage(wallet)} name={wallet.name} />
              <span className="name">{wallet.name}</span>
              <span className="tag accent">
                {m.get} <Icons.external />
              </span>
            </a>
          </li>
        ))}
        {loading
          ? [0, 1, 2].map((i) => (
              <li key={`skeleton-${i}`} aria-hidden="true">
                <div className="row" style={{ cursor: 'default' }}>
                  <span className="img" data-state="loading" />
                </div>
              </li>
            ))
          : null}
      </ul>
      {!loading && wallets.length === 0 ? (
        <p className="sub" role="status" style={{ marginTop: 8, textAlign: 'center' }}>
          {m.none}
        </p>
      ) : null}
    </div>
  )
}
