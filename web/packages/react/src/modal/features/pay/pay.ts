// The pay feature's view chunk: the deposit form with the exchanges, and the deposit's progress.
export { PayWithExchangeView } from './PayWithExchange.js'
export { PayProgressView } from './Progress.js'
