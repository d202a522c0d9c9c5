/*
 * Input protection for the buttons that act for the user (issue 20, N11). The host page places
 * and styles this frame's iframe: it can lay something over the approval view, make it
 * transparent, or bring it under the pointer between the two clicks of a double click. So
 * Approve (and the key export's steps) work only once the view has been shown, as it is, for
 * APPROVE_DELAY_MS:
 * - where the browser has IntersectionObserver v2 (entries with `isVisible`), "shown" is its
 *   word that nothing covers the view and no opacity, transform or filter changes it; when it
 *   stops being so, the buttons are off again, and the delay starts over once it is so again;
 * - elsewhere, the delay alone;
 * - the delay also starts over when the page becomes visible again (visibilitychange), when
 *   this frame's window gets the focus other than by a press inside it (the window coming back
 *   to the front), and when the frame is resized (the host shows it by giving it a size).
 * The focus a press inside the frame brings does not count: it would swallow every first click.
 */
import { type RefObject, useEffect, useRef, useState } from 'react'

/**
 * How long the view must have been shown, unchanged, before its buttons work: longer than the
 * gap between the two clicks of a double click, so a click aimed at the host page cannot land
 * on Approve as the view appears, and short enough not to hold up a person reading the request.
 */
export const APPROVE_DELAY_MS = 500

/** IntersectionObserver v2's `delay`: how often it checks visibility (browsers ask at least 100 ms with `trackVisibility`). */
export const VISIBILITY_CHECK_MS = 100

/** The timers the delay runs on (fake ones in tests). */
export interface Clock {
  setTimeout(run: () => void, ms: number): unknown
  clearTimeout(timer: unknown): void
}

const systemClock: Clock = {
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
}

/** The window whose focus, size, pointer and document visibility count (the frame's own). */
export interface Page extends EventTarget {
  document: EventTarget & { visibilityState: DocumentVisibilityState }
}

export interface ArmOptions {
  delayMs?: number
  clock?: Clock
  /** The IntersectionObserver to use; null: none (the delay alone). The browser's by default. */
  Observer?: typeof IntersectionObserver | null
  /** The target's window by default. */
  page?: Page
}

/** IntersectionObserver v2's additions, which the DOM typings do not have yet. */
interface VisibilityInit extends IntersectionObserverInit {
  trackVisibility: boolean
  delay: number
}
type VisibilityEntry = IntersectionObserverEntry & { isVisible?: boolean }

/**
 * Calls `onChange(true)` once `target` has been shown for the delay and `onChange(false)` when
 * it no longer counts as shown (see the top of this file); off at first. Returns the stop.
 */
export function armWhenSeen(target: Element, onChange: (armed: boolean) => void, options: ArmOptions = {}): () => void {
  const { delayMs = APPROVE_DELAY_MS, clock = systemClock } = options
  const page: Page | null = options.page ?? target.ownerDocument.defaultView
  if (!page) return () => undefined
  const Observer = options.Observer === undefined ? (globalThis.IntersectionObserver ?? null) : options.Observer
  // Shown as it is: with an observer, not until its first report says so (v2) or shows it cannot
  // tell (no `isVisible`: then always); without one, always.
  let seen = !Observer
  let waited = false
  let armed = false
  let timer: unknown
  // A press inside the frame is under way: the focus it brings is the click's own, which
  // `armed` judges, and does not start the delay over.
  let pressing = false

  const pageVisible = () => page.document.visibilityState === 'visible'
  const update = () => {
    const next = waited && seen && pageVisible()
    if (next === armed) return
    armed = next
    onChange(armed)
  }
  const restart = () => {
    waited = false
    if (timer !== undefined) clock.clearTimeout(timer)
    timer = undefined
    if (seen && pageVisible())
      timer = clock.setTimeout(() => {
        timer = undefined
        waited = true
        update()
      }, delayMs)
    update()
  }

  let observer: IntersectionObserver | undefined
  if (Observer) {
    try {
      const init: VisibilityInit = { threshold: 0, trackVisibility: true, delay: VISIBILITY_CHECK_MS }
      observer = new Observer((entries) => {
        const entry = entries[entries.length - 1] as VisibilityEntry | undefined
        if (!entry) return
        const next = typeof entry.isVisible === 'boolean' ? entry.isVisible : true
        if (next === seen) return
        seen = next
        restart()
      }, init)
      observer.observe(target)
    } catch {
      observer = undefined
      seen = true
    }
  }

  const onFocus = () => {
    if (pressing) pressing = false
    else restart()
  }
  const onPress = () => {
    pressing = true
  }
  const onRelease = () => {
    pressing = false
  }
  const listeners: [EventTarget, string, () => void, boolean][] = [
    [page, 'focus', onFocus, false],
    [page, 'blur', onRelease, false],
    // A touch brings the focus with its compatibility mousedown, after pointerup: both count.
    [page, 'pointerdown', onPress, true],
    [page, 'mousedown', onPress, true],
    [page, 'pointerup', onRelease, true],
    [page, 'mouseup', onRelease, true],
    [page, 'pointercancel', onRelease, true],
    [page, 'resize', restart, false],
    [page.document, 'visibilitychange', restart, false],
  ]
  for (const [on, type, listener, capture] of listeners) on.addEventListener(type, listener, capture)
  restart()

  return () => {
    observer?.disconnect()
    if (timer !== undefined) clock.clearTimeout(timer)
    timer = undefined
    for (const [on, type, listener, capture] of listeners) on.removeEventListener(type, listener, capture)
  }
}

/**
 * Whether the buttons of the view `ref` points at work (see `armWhenSeen`), for the view of
 * `key` (a request's id, a step): a new key starts off again.
 */
export function useArmed<T extends Element>(key: string): [RefObject<T | null>, boolean] {
  const ref = useRef<T>(null)
  const [state, setState] = useState<{ key: string; armed: boolean }>()
  useEffect(() => {
    const target = ref.current
    if (!target) return
    return armWhenSeen(target, (armed) => setState({ key, armed }))
  }, [key])
  return [ref, state?.key === key && state.armed]
}
