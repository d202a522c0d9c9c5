// The account-name feature's view chunk: choosing a name and its success.
export { RegisterAccountNameView } from './RegisterName.js'
export { RegisterAccountNameSuccessView } from './Success.js'
