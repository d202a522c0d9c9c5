import { act } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
import { cleanup, flush, render, stubImages, waitFor } from '../test-utils.js'
import { identiconBackground, RemoteImage } from './ui.js'

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

describe('RemoteImage', () => {
  afterEach(() => cleanup(undefined))

  it('an image already complete before any load listener is shown as loaded (no load event comes)', async () => {
    const restore = stubImages('loaded')
    try {
      const { container } = render(<RemoteImage src="data:image/svg+xml,%3Csvg%2F%3E" name="WalletConnect" />)
      await waitFor(() => expect(container.querySelector('.img')?.getAttribute('data-state')).toBe('loaded'))
    } finally {
      restore()
    }
  })

  it('an image complete but broken (no natural width) shows the initial', async () => {
    const restore = stubImages('broken')
    try {
      const { container } = render(<RemoteImage src="https://img.test/broken.png" name="wallet" />)
      await waitFor(() => expect(container.querySelector('.img')?.getAttribute('data-state')).toBe('error'))
      expect(container.querySelector('.fallback')?.textContent).toBe('W')
    } finally {
      restore()
    }
  })

  it('an image still loading stays in the loading state until its load event', async () => {
    const restore = stubImages('loading')
    try {
      const { container } = render(<RemoteImage src="https://img.test/slow.png" name="wallet" />)
      const box = container.querySelector('.img')
      await flush()
      expect(box?.getAttribute('data-state')).toBe('loading')
      act(() => {
        container.querySelector('img')?.dispatchEvent(new Event('load'))
      })
      expect(box?.getAttribute('data-state')).toBe('loaded')
    } finally {
      restore()
    }
  })
})
