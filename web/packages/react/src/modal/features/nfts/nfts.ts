// The NFTs feature's view chunk: the Account view's NFTs tab, one NFT, and sending it (loaded the first time the tab or one of its views shows).
export { NftItemView } from './NftItem.js'
export { NftList } from './NftList.js'
export { SendNftPreviewView, SendNftView } from './SendNft.js'
