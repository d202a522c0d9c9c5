'use client'

import { evmAdapter } from '@sigil/adapter-evm'
import { sigilDev } from '@sigil/core/networks'
import { createAppKit, SigilProvider, type AppKit } from '@sigil/react'
import { useState, type ReactNode } from 'react'
import type { SiteConfig } from './config'

/** The browser's instance: one page, one visitor, kept across client-side navigations. */
let browserAppKit: AppKit | undefined

/**
 * On the server each request renders with an instance of its own (no module state shared
 * between visitors); in the browser the page creates one and keeps it. The browser's instance
 * restores the stored connection (localStorage) once created; until the page has hydrated,
 * every hook reads the state an instance starts with, the same on both sides.
 */
function appKitFor(config: SiteConfig): AppKit {
  const create = () =>
    createAppKit({
      projectId: config.projectId,
      apiUrl: config.apiUrl,
      networks: [sigilDev({ rpcUrl: config.devRpcUrl })],
      adapters: [evmAdapter()],
      metadata: {
        name: 'Sigil on Next.js',
        description: 'A Next.js App Router page using Sigil',
        url: typeof location === 'undefined' ? '' : location.origin,
        icons: [],
      },
    })
  if (typeof window === 'undefined') return create()
  browserAppKit ??= create()
  return browserAppKit
}

export function SigilProviders({ config, children }: { config: SiteConfig; children: ReactNode }) {
  const [appKit] = useState(() => appKitFor(config))
  return <SigilProvider appKit={appKit}>{children}</SigilProvider>
}
