import { explorerUrl, shortenAddress, type SigilState } from '@sigil/core'
import { activeNetwork, canSendNft, heldNft } from '@sigil/core/nfts'
import { useCallback } from 'react'
import type { ViewProps } from '../../registry.js'
import { useMessages, useModal, useStore } from '../../context.js'
import { Icons } from '../../ui.js'
import { NftImage } from './NftImage.js'
import { NftStyles } from './styles.js'

/**
 * One NFT the account holds: its image large, its name, and what it is (collection, token id,
 * standard, how many are held, contract) with its description; 'Send' where the family and the
 * wallet can send it. The NFT as the list has it now (its amount after a send), else as opened.
 */
export function NftItemView({ route }: ViewProps<'NftItem'>) {
  const { client } = useModal()
  const m = useMessages().ui.nfts
  const id = route.data.nft.id
  const nft = useStore(useCallback((s: SigilState) => heldNft(s, id), [id])) ?? route.data.nft
  const network = useStore(activeNetwork)
  const contractUrl = explorerUrl(network, 'address', nft.contract)
  const collection = [nft.collection.name, nft.collection.symbol ? `(${nft.collection.symbol})` : ''].filter(Boolean).join(' ')
  return (
    <div className="nft-item" data-testid="nft-item">
      <NftStyles />
      <NftImage src={nft.image} alt={nft.name} />
      <div className="nft-title">
        <h3 className="headline" data-testid="nft-name">
          {nft.name}
        </h3>
        {collection ? <p className="sub">{collection}</p> : null}
      </div>
      {nft.description ? (
        <p className="nft-desc" data-testid="nft-description">
          {nft.description}
        </p>
      ) : null}
      <dl className="send-facts" data-testid="nft-facts">
        {nft.collection.name ? (
          <div>
            <dt>{m.collection}</dt>
            <dd>{nft.collection.name}</dd>
          </div>
        ) : null}
        <div>
          <dt>{m.tokenId}</dt>
          <dd data-testid="nft-token-id">{nft.tokenId}</dd>
        </div>
        <div>
          <dt>{m.standard}</dt>
          <dd>{m.standards[nft.standard] ?? nft.standard}</dd>
        </div>
        {nft.standard === 'erc1155' ? (
          <div>
            <dt>{m.held}</dt>
            <dd data-testid="nft-amount">{nft.amount}</dd>
          </div>
        ) : null}
        <div>
          <dt>{m.contract}</dt>
          <dd>
            {contractUrl ? (
              <a className="nft-link" href={contractUrl} target="_blank" rel="noreferrer noopener" title={nft.contract}>
                {shortenAddress(nft.contract)} <Icons.external />
              </a>
            ) : (
              <span title={nft.contract}>{shortenAddress(nft.contract)}</span>
            )}
          </dd>
        </div>
      </dl>
      {canSendNft(client) ? (
        <button type="button" className="btn block" onClick={() => client.push('SendNft', { nft })} data-testid="nft-send">
          {m.send}
        </button>
      ) : null}
    </div>
  )
}
