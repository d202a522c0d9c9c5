import type { ReactNode } from 'react'
import type { AppKit } from './appkit.js'
import { AppKitContext } from './hooks.js'

export interface SigilProviderProps {
  /** The instance the hooks and `<ConnectButton/>` below use. */
  appKit: AppKit
  children?: ReactNode
}

/**
 * Gives the hooks and `<ConnectButton/>` below one `createAppKit` instance. Needed where a
 * process renders for many visitors (Next.js and other server rendering): each render creates
 * its own instance and passes it here, so no state is shared between requests.
 */
export function SigilProvider({ appKit, children }: SigilProviderProps) {
  return <AppKitContext value={appKit}>{children}</AppKitContext>
}
