/*
 * How an NFT send ends when it does not send before the wallet is asked: the amount is not a
 * whole number from 1 to what the account holds (always 1 for an ERC-721). The receiver's
 * refusals are the send feature's (InvalidReceiverError, NameNotResolvedError).
 */
import { SigilError } from '../../errors.js'
import { localized } from '../../messages/active.js'
import { ui as englishUi } from '../../messages/ui.js'

/** Its words in the visitor's locale (English until the modal loads one). */
const ui = localized('ui', englishUi)

/** The amount is not a whole number from 1 to `held`. */
export class InvalidNftAmountError extends SigilError<'INVALID_NFT_AMOUNT'> {
  override name = 'InvalidNftAmountError'
  constructor(held: string) {
    super(ui.nfts.errors.invalidAmount(held), 'INVALID_NFT_AMOUNT')
  }
}

/** The active family's adapter cannot send NFTs, or the NFT is of another chain than the active one. */
export class NftUnsupportedError extends SigilError<'NFT_UNSUPPORTED'> {
  override name = 'NftUnsupportedError'
  constructor(network: string) {
    super(ui.nfts.errors.unsupported(network), 'NFT_UNSUPPORTED')
  }
}
