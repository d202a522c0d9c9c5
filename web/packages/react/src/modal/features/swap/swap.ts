// The swap feature's view chunk: the swap form, the token choice, the Preview and the done state.
export { SwapDoneView } from './Done.js'
export { SwapPreviewView } from './Preview.js'
export { SwapSelectTokenView } from './SelectToken.js'
export { SwapView } from './Swap.js'
