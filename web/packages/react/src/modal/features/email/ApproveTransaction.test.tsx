import { act } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
import { fakeAuthConnector } from '../../../../../core/src/test-utils/index.js'
import type { AppKit } from '../../../appkit.js'
import { ADDRESS, cleanup, shadow, stubDirectory, testAppKit, waitFor } from '../../../test-utils.js'
import { FRAME_DEFAULT_HEIGHT, FRAME_MIN_HEIGHT, slotHeight } from './ApproveTransaction.js'

let current: AppKit | undefined
afterEach(() => {
  cleanup(current)
  current = undefined
})

describe("the embedded wallet's place in the modal", () => {
  it("is as tall as the frame's view says it needs, within the room there is, never below the least", () => {
    expect(slotHeight(undefined, undefined)).toBe(FRAME_DEFAULT_HEIGHT)
    expect(slotHeight(436, 800)).toBe(436)
    // more than there is room for: the room (the frame's view scrolls inside, its buttons show)
    expect(slotHeight(900, 612.4)).toBe(612)
    expect(slotHeight(undefined, 200)).toBe(200)
    expect(slotHeight(40, 800)).toBe(FRAME_MIN_HEIGHT)
    expect(slotHeight(900, 60)).toBe(FRAME_MIN_HEIGHT)
  })

  it('ApproveTransaction sizes its place to the height the frame told, and lays the frame over it', async () => {
    stubDirectory()
    const { auth, source, emitRequest } = fakeAuthConnector({}, ADDRESS)
    const { appKit } = testAppKit({ connectors: [source], features: { email: true, socials: false, analytics: false } })
    current = appKit
    act(() => emitRequest({ type: 'approval-start', abort: () => undefined }))
    const slot = await waitFor(() => {
      const el = shadow().querySelector<HTMLElement>('[data-testid=frame-slot]')
      if (!el) throw new Error('no frame slot')
      return el
    })
    await waitFor(() => expect(slot.style.height).toBe(`${FRAME_DEFAULT_HEIGHT}px`))
    act(() => emitRequest({ type: 'frame-height', height: 436 }))
    await waitFor(() => expect(slot.style.height).toBe('436px'))
    expect(auth.showFrame).toHaveBeenCalled()
    act(() => emitRequest({ type: 'approval-end', ok: true }))
    await waitFor(() => expect(auth.showFrame).toHaveBeenLastCalledWith(undefined))
  })
})
