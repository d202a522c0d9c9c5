import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { APPROVE_DELAY_MS, type ArmOptions, armWhenSeen, type Page, VISIBILITY_CHECK_MS } from './visibility.js'

/** An IntersectionObserver the test reports to: with `isVisible` (v2) or without (v1). */
class FakeObserver {
  static last: FakeObserver | undefined
  readonly targets: Element[] = []
  disconnected = false
  constructor(
    readonly callback: IntersectionObserverCallback,
    readonly init: IntersectionObserverInit & { trackVisibility?: boolean; delay?: number },
  ) {
    FakeObserver.last = this
  }
  observe(target: Element) {
    this.targets.push(target)
  }
  disconnect() {
    this.disconnected = true
  }
  /** Reports `isVisible` (undefined: a browser without v2). */
  report(isVisible: boolean | undefined) {
    const entry = { target: this.targets[0], isIntersecting: true, ...(isVisible === undefined ? {} : { isVisible }) }
    this.callback([entry as unknown as IntersectionObserverEntry], this as unknown as IntersectionObserver)
  }
}

/** The frame's window: focus, pointer, resize, and the document's visibility. */
function fakePage() {
  const document = Object.assign(new EventTarget(), { visibilityState: 'visible' as DocumentVisibilityState })
  const page: Page = Object.assign(new EventTarget(), { document })
  const setVisibility = (state: DocumentVisibilityState) => {
    document.visibilityState = state
    document.dispatchEvent(new Event('visibilitychange'))
  }
  return { page, setVisibility }
}

function arm(options: ArmOptions = {}) {
  const { page, setVisibility } = fakePage()
  const armed: boolean[] = []
  const stop = armWhenSeen(document.createElement('section'), (on) => armed.push(on), {
    Observer: FakeObserver as unknown as typeof IntersectionObserver,
    page,
    ...options,
  })
  const observer = FakeObserver.last
  return { page, setVisibility, armed, stop, observer, now: () => armed.at(-1) ?? false }
}

beforeEach(() => {
  vi.useFakeTimers()
  FakeObserver.last = undefined
})
afterEach(() => {
  vi.useRealTimers()
})

describe('the approval buttons (input protection)', () => {
  it('are off at first, and on once IntersectionObserver v2 has seen the view visible for the delay', () => {
    const { observer, now, armed } = arm()
    expect(observer?.init).toMatchObject({ trackVisibility: true, delay: VISIBILITY_CHECK_MS })
    expect(now()).toBe(false)
    // no word from the observer yet: however long, still off
    vi.advanceTimersByTime(APPROVE_DELAY_MS * 4)
    expect(now()).toBe(false)
    observer?.report(true)
    vi.advanceTimersByTime(APPROVE_DELAY_MS - 1)
    expect(now()).toBe(false)
    vi.advanceTimersByTime(1)
    expect(now()).toBe(true)
    expect(armed).toEqual([true])
  })

  it('go off when the view is reported not visible (covered, transparent, transformed), and the delay starts over once it is again', () => {
    const { observer, now } = arm()
    observer?.report(true)
    vi.advanceTimersByTime(APPROVE_DELAY_MS)
    expect(now()).toBe(true)
    observer?.report(false)
    expect(now()).toBe(false)
    vi.advanceTimersByTime(APPROVE_DELAY_MS * 4)
    expect(now()).toBe(false)
    observer?.report(true)
    vi.advanceTimersByTime(APPROVE_DELAY_MS - 1)
    expect(now()).toBe(false)
    vi.advanceTimersByTime(1)
    expect(now()).toBe(true)
  })

  it('a view reported hidden before the delay ran out stays off', () => {
    const { observer, now } = arm()
    observer?.report(true)
    vi.advanceTimersByTime(APPROVE_DELAY_MS / 2)
    observer?.report(false)
    vi.advanceTimersByTime(APPROVE_DELAY_MS)
    expect(now()).toBe(false)
  })

  it('without IntersectionObserver v2 (no isVisible), the delay alone', () => {
    const { observer, now } = arm()
    expect(now()).toBe(false)
    observer?.report(undefined)
    vi.advanceTimersByTime(APPROVE_DELAY_MS - 1)
    expect(now()).toBe(false)
    vi.advanceTimersByTime(1)
    expect(now()).toBe(true)
    observer?.report(undefined)
    expect(now()).toBe(true)
  })

  it('without IntersectionObserver at all (or one that refuses the v2 options), the delay alone', () => {
    const none = arm({ Observer: null })
    expect(none.now()).toBe(false)
    vi.advanceTimersByTime(APPROVE_DELAY_MS)
    expect(none.now()).toBe(true)
    class Refusing {
      constructor() {
        throw new SyntaxError('delay must be at least 100')
      }
    }
    const refusing = arm({ Observer: Refusing as unknown as typeof IntersectionObserver })
    vi.advanceTimersByTime(APPROVE_DELAY_MS)
    expect(refusing.now()).toBe(true)
  })

  it('the delay starts over when the page is hidden and shown again, and when the window gets the focus back', () => {
    const { observer, now, page, setVisibility } = arm()
    observer?.report(true)
    vi.advanceTimersByTime(APPROVE_DELAY_MS)
    expect(now()).toBe(true)
    setVisibility('hidden')
    expect(now()).toBe(false)
    vi.advanceTimersByTime(APPROVE_DELAY_MS * 2)
    expect(now()).toBe(false)
    setVisibility('visible')
    expect(now()).toBe(false)
    vi.advanceTimersByTime(APPROVE_DELAY_MS)
    expect(now()).toBe(true)
    // the window comes back to the front (a popup over it closed on the first of two clicks)
    page.dispatchEvent(new Event('blur'))
    page.dispatchEvent(new Event('focus'))
    expect(now()).toBe(false)
    vi.advanceTimersByTime(APPROVE_DELAY_MS)
    expect(now()).toBe(true)
    // the host gives the frame a new size (it shows it that way)
    page.dispatchEvent(new Event('resize'))
    expect(now()).toBe(false)
    vi.advanceTimersByTime(APPROVE_DELAY_MS)
    expect(now()).toBe(true)
  })

  it('the focus a press inside the frame brings does not start the delay over (the press itself is what counts)', () => {
    const { observer, now, page } = arm()
    observer?.report(true)
    vi.advanceTimersByTime(APPROVE_DELAY_MS)
    page.dispatchEvent(new Event('pointerdown'))
    page.dispatchEvent(new Event('focus'))
    expect(now()).toBe(true)
    page.dispatchEvent(new Event('pointerup'))
    page.dispatchEvent(new Event('blur'))
    // a tap: pointerdown, pointerup, then the mousedown that brings the focus
    page.dispatchEvent(new Event('pointerdown'))
    page.dispatchEvent(new Event('pointerup'))
    page.dispatchEvent(new Event('mousedown'))
    page.dispatchEvent(new Event('focus'))
    expect(now()).toBe(true)
    page.dispatchEvent(new Event('mouseup'))
    page.dispatchEvent(new Event('blur'))
    // later focus without a press: the window coming back
    page.dispatchEvent(new Event('focus'))
    expect(now()).toBe(false)
  })

  it('stops watching when stopped', () => {
    const { observer, now, stop, page } = arm()
    observer?.report(true)
    stop()
    expect(observer?.disconnected).toBe(true)
    vi.advanceTimersByTime(APPROVE_DELAY_MS)
    page.dispatchEvent(new Event('focus'))
    expect(now()).toBe(false)
    expect(vi.getTimerCount()).toBe(0)
  })
})
