/*
 * ApproveTransaction: the embedded wallet's own approval UI, made visible. The frame (on the
 * Sigil server's origin) draws what is signed and the Approve / Reject buttons; this view keeps
 * a place for it and lays the frame over that place while it shows. Closing is blocked here
 * unless forced (core).
 */
import { useEffect, useRef } from 'react'
import { useMessages, useModal } from '../context.js'

export function ApproveTransactionView() {
  const { client } = useModal()
  const m = useMessages().ui.approve
  const slot = useRef<HTMLDivElement>(null)
  const auth = client.getAuthConnector()

  useEffect(() => {
    if (!auth) return
    let frame = 0
    let last = ''
    // Follows the slot every frame: the modal animates its height and may move.
    const follow = () => {
      const el = slot.current
      if (el) {
        const r = el.getBoundingClientRect()
        const key = `${r.left},${r.top},${r.width},${r.height}`
        if (key !== last) {
          last = key
          auth.showFrame({ left: r.left, top: r.top, width: r.width, height: r.height })
        }
      }
      frame = requestAnimationFrame(follow)
    }
    follow()
    return () => {
      cancelAnimationFrame(frame)
      auth.showFrame(undefined)
    }
  }, [auth])

  return (
    <div className="approve" data-testid="approve-transaction">
      <p className="sub">{m.hint}</p>
      <div ref={slot} className="approve-slot" aria-busy="true">
        <p className="sub">{m.loading}</p>
      </div>
    </div>
  )
}
