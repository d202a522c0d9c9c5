import { describe, expect, it } from 'vitest'
import { identiconBackground } from './ui.js'

describe('identiconBackground', () => {
  it('a gradient for every address format, the same for the same address and another for another', () => {
    const evm = identiconBackground('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')
    const solana = identiconBackground('6YpzQmZrjJ5kXyCqoFDHZLUTM3fZTFzx2FCbQyhgYpi5')
    const bitcoin = identiconBackground('bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080')
    for (const bg of [evm, solana, bitcoin]) {
      expect(bg).toMatch(/^radial-gradient\(circle at 30% 30%, hsl\(\d{1,3} 85% 70%\)/)
      expect(bg).not.toContain('NaN')
    }
    expect(new Set([evm, solana, bitcoin]).size).toBe(3)
    expect(identiconBackground('6YpzQmZrjJ5kXyCqoFDHZLUTM3fZTFzx2FCbQyhgYpi5')).toBe(solana)
  })
})
