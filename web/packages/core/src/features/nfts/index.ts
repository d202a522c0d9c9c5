/*
 * `@sigil/core/nfts`: the NFTs feature (the account's NFTs, and sending one). Loaded with the
 * views that use it, never with the host page.
 */
export { createNftClient, nftImageUrl, type GetNftsParams, type NftClient, type NftClientOptions, type NftPage } from './api.js'
export { InvalidNftAmountError, NftUnsupportedError } from './errors.js'
export {
  activeNetwork,
  activeNftAccount,
  canSendNft,
  confirmSendNft,
  fetchNfts,
  heldNft,
  nftsState,
  nftsSupported,
  parseNftAmount,
  prepareSendNft,
  previewSendNft,
  SENT_NFT_TTL_MS,
  sendNft,
  sendNftStep,
  type ConfirmSendNftParameters,
  type FetchNftsErrorType,
  type FetchNftsParameters,
  type FetchNftsReturnType,
  type PreparedNftSend,
  type PrepareSendNftErrorType,
  type PrepareSendNftParameters,
  type PrepareSendNftReturnType,
  type SendNftErrorType,
  type SendNftForm,
  type SendNftParameters,
  type SendNftReturnType,
  type SendNftStep,
  type SendNftStepParameters,
} from './nfts.js'
export { initialNftsState, type Nft, type NftStandard, type NftsState, type NftsStatus, type SentNft } from './state.js'
