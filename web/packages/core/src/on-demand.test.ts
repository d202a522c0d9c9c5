import { describe, expect, it } from 'vitest'
import { onDemand } from './on-demand.js'

describe('onDemand', () => {
  it('makes the thing once and shares it; nothing before the first use', async () => {
    let made = 0
    const thing = onDemand(async () => ++made)
    expect(thing.started()).toBeUndefined()
    expect(await Promise.all([thing.get(), thing.get()])).toEqual([1, 1])
    expect(await thing.started()).toBe(1)
    expect(made).toBe(1)
  })

  it('after a failed making, the next use makes it again', async () => {
    let tries = 0
    const thing = onDemand(async () => {
      tries++
      if (tries === 1) throw new Error('chunk failed to load')
      return 'loaded'
    })
    await expect(thing.get()).rejects.toThrow('chunk failed to load')
    await expect(thing.get()).resolves.toBe('loaded')
    expect(tries).toBe(2)
  })
})
