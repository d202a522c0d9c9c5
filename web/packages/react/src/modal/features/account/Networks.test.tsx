import { act } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
import type { CaipNetwork } from '@sigil/core'
import { bitcoin, ethereum, sigilDev, solana, solanaDevnet } from '@sigil/core/networks'
import type { AppKit } from '../../../appkit.js'
import { cleanup, shadow, stubDirectory, testAppKit, waitFor } from '../../../test-utils.js'

let current: AppKit | undefined
afterEach(() => {
  cleanup(current)
  current = undefined
})

async function networksView(networks: CaipNetwork[]) {
  stubDirectory(5)
  const { appKit } = testAppKit({ networks })
  current = appKit
  await act(() => appKit.open({ view: 'Networks' }))
  return waitFor(() => {
    const el = shadow().querySelector<HTMLElement>('[role=dialog][data-view=Networks]')
    if (!el?.querySelector('[data-network]')) throw new Error('no networks view')
    return el
  })
}

describe('Networks view', () => {
  it('groups networks by chain family, in the order configured', async () => {
    const view = await networksView([sigilDev(), ethereum, solana, solanaDevnet, bitcoin])
    const groups = [...view.querySelectorAll('section[data-family]')].map((s) => ({
      family: s.getAttribute('data-family'),
      title: s.querySelector('.group-title')?.textContent,
      list: s.querySelector('ul')?.getAttribute('aria-label'),
      networks: [...s.querySelectorAll('[data-network]')].map((b) => b.getAttribute('data-network')),
    }))
    expect(groups).toEqual([
      { family: 'eip155', title: 'EVM', list: 'EVM networks', networks: ['eip155:31337', 'eip155:1'] },
      { family: 'solana', title: 'Solana', list: 'Solana networks', networks: [solana.caipNetworkId, solanaDevnet.caipNetworkId] },
      { family: 'bip122', title: 'Bitcoin', list: 'Bitcoin networks', networks: [bitcoin.caipNetworkId] },
    ])
  })

  it('keeps one plain list for a single family', async () => {
    const view = await networksView([sigilDev(), ethereum])
    expect(view.querySelectorAll('section[data-family]')).toHaveLength(0)
    expect(view.querySelector('ul')?.getAttribute('aria-label')).toBe('Networks')
  })
})
