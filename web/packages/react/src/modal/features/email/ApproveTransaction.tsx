/*
 * Views that show the embedded wallet's frame: ApproveTransaction (the frame's own approval UI,
 * made visible) and ExportKey (the frame shows the user their keys after a fresh email code).
 * The frame (on the Sigil server's origin) draws its content; these views keep a place for it,
 * as tall as the frame says its view needs within the room the modal has, and lay the frame over
 * that place while they show. Closing ApproveTransaction is blocked unless forced (core).
 */
import { errorText, isUserRejection } from '@sigil/core'
import { embeddedWalletAvailable, exportKeys, showEmbeddedFrame, watchEmbeddedFrameHeight } from '@sigil/core/login'
import { useEffect, useRef, useState } from 'react'
import { useMessages, useModal } from '../../context.js'

/** The frame's place before it said how tall its view is. */
export const FRAME_DEFAULT_HEIGHT = 290
/** The least the place keeps however little room there is (the frame's view scrolls inside then). */
export const FRAME_MIN_HEIGHT = 140

/**
 * The room the frame's place has: the card's greatest height less all else the card shows (its
 * header, the view's other parts), so that the whole card, the frame's buttons with it, shows
 * without scrolling. Undefined outside a card.
 */
function roomFor(slot: HTMLElement): number | undefined {
  const card = slot.closest<HTMLElement>('[role=dialog]')
  const sizer = slot.closest<HTMLElement>('.sizer')
  const body = sizer?.firstElementChild
  if (!card || !sizer || !(body instanceof HTMLElement)) return undefined
  // The sizer animates to the body's height (and shrinks when the card is at its greatest): the
  // card less the sizer is its header; the body less the slot, the view's other parts.
  const greatest = greatestHeight(card)
  return greatest === undefined ? undefined : greatest - (card.offsetHeight - sizer.offsetHeight) - (body.offsetHeight - slot.offsetHeight)
}

/**
 * The card's greatest height: its max-height (in pixels, or a share of what holds it), within
 * what holds it; undefined while nothing is laid out.
 */
function greatestHeight(card: HTMLElement): number | undefined {
  const holder = card.parentElement
  if (!holder?.clientHeight) return undefined
  const held = getComputedStyle(holder)
  const room = holder.clientHeight - Number.parseFloat(held.paddingTop) - Number.parseFloat(held.paddingBottom)
  const max = getComputedStyle(card).maxHeight
  if (max.endsWith('%')) return (room * Number.parseFloat(max)) / 100
  const pixels = Number.parseFloat(max)
  return Number.isFinite(pixels) ? Math.min(pixels, room) : room
}

/** The place's height: the height the frame's view needs, within the room there is. */
export function slotHeight(wanted: number | undefined, room: number | undefined): number {
  return Math.round(Math.max(FRAME_MIN_HEIGHT, Math.min(wanted ?? FRAME_DEFAULT_HEIGHT, room ?? Number.POSITIVE_INFINITY)))
}

/**
 * The place the frame is laid over now. One approval's view can still be leaving (the modal
 * closing) while the next one's shows: only the newest place shows or hides the frame.
 */
let frameOwner: object | undefined

/**
 * A place in the view the frame is laid over, as tall as the frame's view says it needs (within
 * the room the card has), following it every frame (the modal animates its height).
 */
function FrameSlot({ loading }: { loading: string }) {
  const { client } = useModal()
  const slot = useRef<HTMLDivElement>(null)
  const available = embeddedWalletAvailable(client)
  useEffect(() => {
    if (!available) return
    const owner = {}
    frameOwner = owner
    let frame = 0
    let last = ''
    // What the frame said its view needs, once shown (it says so at each showing).
    let wanted: number | undefined
    const stop = watchEmbeddedFrameHeight(client, (height) => {
      wanted = height
    })
    const follow = () => {
      const el = slot.current
      if (el) {
        const height = `${slotHeight(wanted, roomFor(el))}px`
        if (el.style.height !== height) el.style.height = height
        const r = el.getBoundingClientRect()
        const key = `${r.left},${r.top},${r.width},${r.height}`
        if (key !== last && frameOwner === owner) {
          last = key
          showEmbeddedFrame(client, { left: r.left, top: r.top, width: r.width, height: r.height })
        }
      }
      frame = requestAnimationFrame(follow)
    }
    follow()
    return () => {
      stop()
      cancelAnimationFrame(frame)
      if (frameOwner !== owner) return
      frameOwner = undefined
      showEmbeddedFrame(client, undefined)
    }
  }, [available, client])
  return (
    <div ref={slot} className="approve-slot" aria-busy="true" data-testid="frame-slot">
      <p className="sub">{loading}</p>
    </div>
  )
}

export function ApproveTransactionView() {
  const m = useMessages().ui.approve
  return (
    <div className="approve" data-testid="approve-transaction">
      <p className="sub">{m.hint}</p>
      <FrameSlot loading={m.loading} />
    </div>
  )
}

export function ExportKeyView() {
  const { client } = useModal()
  const m = useMessages().ui.approve
  const available = embeddedWalletAvailable(client)
  const [error, setError] = useState<string>()
  // The frame runs the export; the view goes back once the user is done there.
  useEffect(() => {
    if (!available) return
    const controller = new AbortController()
    exportKeys(client, { signal: controller.signal }).then(
      () => client.goBack(),
      (e: unknown) => {
        if (!controller.signal.aborted && !isUserRejection(e)) setError(errorText(e))
      },
    )
    return () => controller.abort()
  }, [available, client])
  return (
    <div className="approve" data-testid="export-key">
      <p className="sub">{m.exportHint}</p>
      {error ? (
        <p className="sub err" role="alert">
          {error}
        </p>
      ) : null}
      <FrameSlot loading={m.loading} />
    </div>
  )
}
