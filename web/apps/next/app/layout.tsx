import type { Metadata } from 'next'
import { connection } from 'next/server'
import type { ReactNode } from 'react'
import { siteConfig } from './config'
import { SigilProviders } from './providers'

export const metadata: Metadata = { title: 'Sigil on Next.js' }

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Rendered at each request (not prerendered at build): the Sigil server's address and project
  // come from the environment `next start` runs with.
  await connection()
  const config = siteConfig()
  return (
    <html lang="en">
      <body style={{ margin: 0, fontFamily: 'system-ui, sans-serif', background: '#f7f8fa', color: '#141414' }}>
        {config.projectId ? (
          <SigilProviders config={config}>{children}</SigilProviders>
        ) : (
          <main style={{ maxWidth: 640, margin: '48px auto', padding: '0 16px' }}>
            <h1>Sigil on Next.js</h1>
            <p>
              Set SIGIL_PROJECT_ID to a project of your Sigil server (<code>sigil project add --name next --origin http://127.0.0.1:3000</code>) and start the
              page again.
            </p>
          </main>
        )}
      </body>
    </html>
  )
}
