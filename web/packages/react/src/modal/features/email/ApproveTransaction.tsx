/*
 * Views that show the embedded wallet's frame: ApproveTransaction (the frame's own approval UI,
 * made visible) and ExportKey (the frame shows the user their keys after a fresh email code).
 * The frame (on the Sigil server's origin) draws its content; these views keep a place for it
 * and lay the frame over that place while they show. Closing ApproveTransaction is blocked
 * unless forced (core).
 */
import { errorText, isUserRejection } from '@sigil/core'
import { embeddedWalletAvailable, exportKeys, showEmbeddedFrame } from '@sigil/core/login'
import { useEffect, useRef, useState } from 'react'
import { useMessages, useModal } from '../../context.js'

/** A place in the view the frame is laid over, following it every frame (the modal animates its height). */
function FrameSlot({ loading }: { loading: string }) {
  const { client } = useModal()
  const slot = useRef<HTMLDivElement>(null)
  const available = embeddedWalletAvailable(client)
  useEffect(() => {
    if (!available) return
    let frame = 0
    let last = ''
    const follow = () => {
      const el = slot.current
      if (el) {
        const r = el.getBoundingClientRect()
        const key = `${r.left},${r.top},${r.width},${r.height}`
        if (key !== last) {
          last = key
          showEmbeddedFrame(client, { left: r.left, top: r.top, width: r.width, height: r.height })
        }
      }
      frame = requestAnimationFrame(follow)
    }
    follow()
    return () => {
      cancelAnimationFrame(frame)
      showEmbeddedFrame(client, undefined)
    }
  }, [available, client])
  return (
    <div ref={slot} className="approve-slot" aria-busy="true">
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
