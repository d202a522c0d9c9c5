// One action per module; the client (client.ts) binds them to a modal instance.
export { connect, type ConnectErrorType, type ConnectParameters } from './connect.js'
export { disconnect, disconnectTargets, type DisconnectErrorType, type DisconnectParameters } from './disconnect.js'
export { switchNetwork, type SwitchNetworkErrorType, type SwitchNetworkParameters } from './switch-network.js'
export { signMessage, type SignMessageErrorType, type SignMessageParameters } from './sign-message.js'
export { handleWalletEvent } from './wallet-events.js'
export { restoreSession, waitForConnector, type RestoreParameters } from './reconnect.js'
export type { SendErrorType, SendParameters, SendReturnType } from '../features/send/send.js'
