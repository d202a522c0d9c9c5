import { arbitrum, bitcoin, bitcoinTestnet, ethereum, polygon, sigilDev, solana, solanaDevnet, solanaTestnet } from '@sigil/core/networks'
import { describe, expect, it } from 'vitest'
import { createDirectory, KNOWN_CHAINS } from './directory.js'
import { resolveOptions } from '@sigil/core'

describe('directory', () => {
  it("knows the chains of @sigil/core/networks' well-known networks", () => {
    expect(KNOWN_CHAINS).toEqual([ethereum, arbitrum, polygon, solana, solanaDevnet, solanaTestnet, bitcoin, bitcoinTestnet].map((n) => n.caipNetworkId))
  })

  it("asks for a family's wallets on the page's networks of the family, then its well-known chains", () => {
    const dev = sigilDev()
    const directory = createDirectory(resolveOptions({ projectId: 'p', networks: [dev, ethereum, solana] }), async () => new Response('{}'))
    expect(directory.familyParams('eip155', [dev, ethereum, solana]).chains).toEqual(['eip155:31337', 'eip155:1', 'eip155:42161', 'eip155:137'])
    expect(directory.familyParams('solana', [dev, ethereum, solana]).chains).toEqual([
      solana.caipNetworkId,
      solanaDevnet.caipNetworkId,
      solanaTestnet.caipNetworkId,
    ])
    expect(directory.familyParams('bip122', [dev]).chains).toEqual([bitcoin.caipNetworkId, bitcoinTestnet.caipNetworkId])
  })
})
