import { installPlatform, walletInstallLink } from '@sigil/core/wallet-list'
import { useMemo } from 'react'
import { useMessages, useModal } from '../../context.js'
import { Icons, RemoteImage } from '../../ui.js'
import { LoadingRows, useFamilyWallets } from './family-wallets.js'

/** How many wallets the view suggests. */
const SUGGESTED = 6

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
  const { wallets: familyWallets, loading } = useFamilyWallets()
  const installLink = useInstallLink()
  const wallets = useMemo(
    () =>
      familyWallets
        .map((wallet) => ({ wallet, link: installLink(wallet) }))
        .filter((w): w is { wallet: typeof w.wallet; link: string } => w.link !== undefined)
        .slice(0, SUGGESTED),
    [familyWallets, installLink],
  )
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
        {loading ? <LoadingRows /> : null}
      </ul>
      {!loading && wallets.length === 0 ? (
        <p className="sub" role="status" style={{ marginTop: 8, textAlign: 'center' }}>
          {m.none}
        </p>
      ) : null}
    </div>
  )
}
