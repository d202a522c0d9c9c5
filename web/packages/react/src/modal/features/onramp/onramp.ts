// The onramp feature's view chunk: the buy form and the purchase's progress.
export { OnRampView } from './OnRamp.js'
export { OnRampProgressView } from './Progress.js'
