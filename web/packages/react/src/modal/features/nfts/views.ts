// The NFTs feature's views: one NFT (NftItem), and sending it (SendNft -> SendNftPreview -> the send feature's WalletSendSent).
import { feature, type ViewEntries } from '../../registry.js'

const nfts = feature(() => import('./nfts.js'))

export const nftViews = {
  NftItem: nfts(
    (m) => m.NftItemView,
    (route, m) => route.data.nft.collection.name || m.ui.nfts.titles.NftItem,
  ),
  SendNft: nfts(
    (m) => m.SendNftView,
    (_, m) => m.ui.nfts.titles.SendNft,
  ),
  SendNftPreview: nfts(
    (m) => m.SendNftPreviewView,
    (_, m) => m.ui.nfts.titles.SendNftPreview,
  ),
} satisfies ViewEntries
