import { describe, expect, it } from 'vitest'
import { arbitrum, ethereum, polygon, solana } from '../../networks.js'
import { compatibleNetworks } from './receive.js'

describe('compatibleNetworks', () => {
  it("lists the host's other networks of the active network's family, in the host's order", () => {
    expect(compatibleNetworks([ethereum, solana, polygon, arbitrum], polygon).map((n) => n.name)).toEqual([ethereum.name, arbitrum.name])
    expect(compatibleNetworks([ethereum, solana, polygon], solana)).toEqual([])
  })
})
