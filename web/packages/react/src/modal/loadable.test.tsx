import { act } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
import { cleanup, render, waitFor } from '../test-utils.js'
import { loadable } from './loadable.js'

afterEach(() => cleanup(undefined))

function Hello({ name }: { name: string }) {
  return <p>Hello {name}</p>
}

describe('loadable', () => {
  it('shows the fallback until the chunk is there, then the component', async () => {
    let release!: () => void
    const chunk = new Promise<void>((r) => (release = r))
    const { Component } = loadable<{ name: string }>(() => chunk.then(() => Hello), <p>loading</p>)
    const { container } = render(<Component name="Ada" />)
    expect(container.textContent).toBe('loading')
    await act(async () => release())
    await waitFor(() => expect(container.textContent).toBe('Hello Ada'))
  })

  it('renders in the first pass once preloaded (no Suspense round)', async () => {
    let loads = 0
    const view = loadable<{ name: string }>(async () => {
      loads++
      return Hello
    })
    await view.preload()
    await view.preload()
    const { container } = render(<view.Component name="Grace" />)
    expect(container.textContent).toBe('Hello Grace')
    expect(loads).toBe(1)
  })

  it('a chunk that failed to load is tried again', async () => {
    let fail = true
    const view = loadable<{ name: string }>(async () => {
      if (fail) throw new Error('offline')
      return Hello
    })
    await expect(view.preload()).rejects.toThrow('offline')
    fail = false
    await view.preload()
    expect(render(<view.Component name="Linus" />).container.textContent).toBe('Hello Linus')
  })
})
