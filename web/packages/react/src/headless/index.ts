/*
 * @sigil/react/headless: hooks for a host that draws its own wallet UI on Sigil's state and
 * actions, with no modal: the page's connectors and the directory's wallets (search, paging),
 * connecting one, the WalletConnect pairing URI, and the embedded wallet's email and social
 * login steps. An entry of its own, so the page's first script does not carry them; the
 * directory client and the login actions load with the first hook that needs them.
 */
export {
  useConnect,
  useConnectors,
  useWalletConnectUri,
  useWalletList,
  type ConnectTarget,
  type HeadlessWallet,
  type UseConnect,
  type UseConnectors,
  type UseWalletConnectUri,
  type UseWalletList,
  type UseWalletListParameters,
} from './wallets.js'
export { useEmailLogin, useSocialLogin, type EmailLoginStep, type LoginState, type UseEmailLogin, type UseSocialLogin } from './login.js'
export type { Connection, Connector, SocialProvider, Wallet } from '@sigil/core'
