/*
 * The host page's side of the embedded-wallet frame: a hidden iframe on the Sigil server's frame
 * origin, loaded with projectId, chainId, version and enableLogger. Messages are validated with
 * the shared zod schemas before posting and on receipt, and accepted only from the frame's origin
 * and window. Each request carries a random id and settles on exactly one reply. Timings (spec
 * section 9): frame load 20 s, initialisation completes 500 ms after ready, connect requests 30 s,
 * sign-out waits at most 3 s, a heartbeat every 5 s. Loaded on demand (email login, a stored
 * embedded session), never with the host page.
 */
import { errors } from '../messages/core.js'
import { RpcErrorCode, SigilError, UserRejectedRequestError } from '../errors.js'
import type { z } from 'zod'
import { AppRequest, FrameMessage, ResultOf, type AppRequestType } from './messages.js'

export const FRAME_LOAD_TIMEOUT_MS = 20_000
export const FRAME_READY_DELAY_MS = 500
export const FRAME_REQUEST_TIMEOUT_MS = 30_000
export const FRAME_SIGN_OUT_WAIT_MS = 3_000
export const FRAME_HEARTBEAT_MS = 5_000

export interface FrameBridgeOptions {
  /** The frame origin's base URL (the Sigil server's `--frame-public-url`). */
  frameUrl: string
  projectId: string
  /** The active network's CAIP-2 id. */
  chainId: string
  version: string
  enableLogger?: boolean
  /** The modal's locale ('de', 'ar'…): the frame's views and the emails it has sent follow it. */
  locale?: string
  /** Where the iframe goes; the page's document by default. */
  document?: Document
  /** Hears the height the frame's view needs (FRAME_HEIGHT), to size the iframe to it. */
  onHeight?: (height: number) => void
}

export interface FrameRequestOptions {
  /** Milliseconds until 'Embedded Wallet Request Timed Out'; none when 0. */
  timeoutMs?: number
  signal?: AbortSignal
}

type RequestOf<T extends AppRequestType> = Extract<AppRequest, { type: T }>
type Payload<T extends AppRequestType> = 'payload' extends keyof RequestOf<T> ? RequestOf<T>['payload' & keyof RequestOf<T>] : undefined

interface Pending {
  type: AppRequestType
  resolve(value: unknown): void
  reject(error: Error): void
  done(): void
}

const HIDDEN = 'position:fixed;border:0;width:0;height:0;left:0;top:0;opacity:0;pointer-events:none;visibility:hidden'

function randomId(): string {
  const bytes = new Uint8Array(16)
  crypto.getRandomValues(bytes)
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
}

/** An error the frame answered with: 4001 as UserRejectedRequestError, else its message ('An error occurred' without one). */
function frameError(message: string | undefined, code: number | undefined): SigilError {
  if (code === 4001) return new UserRejectedRequestError()
  return new SigilError(message || errors.anErrorOccurred, code ?? RpcErrorCode.defaultError)
}

export class FrameBridge {
  readonly origin: string
  readonly iframe: HTMLIFrameElement
  /** Settles 500 ms after the frame said it is ready; rejects after 20 s without it. */
  readonly ready: Promise<void>
  /** When the frame last sent its heartbeat (ms since epoch; it sends one every 5 s). */
  lastHeartbeat = 0
  private readonly pending = new Map<string, Pending>()
  private readonly log: (...args: unknown[]) => void
  private readonly onMessage: (event: MessageEvent) => void
  private readonly win: Window

  constructor(options: FrameBridgeOptions) {
    const doc = options.document ?? document
    this.win = doc.defaultView as Window
    const base = new URL(options.frameUrl)
    this.origin = base.origin
    this.log = options.enableLogger ? (...args) => console.warn('[sigil frame]', ...args) : (...args) => console.debug('[sigil frame]', ...args)
    const src = new URL('/', base)
    src.search = new URLSearchParams({
      projectId: options.projectId,
      chainId: options.chainId,
      version: options.version,
      enableLogger: String(Boolean(options.enableLogger)),
      ...(options.locale ? { locale: options.locale } : {}),
    }).toString()
    const iframe = doc.createElement('iframe')
    iframe.src = src.toString()
    iframe.title = 'Sigil embedded wallet'
    // The frame copies what it shows (an address, the user's own keys) itself: the keys never reach this page.
    iframe.allow = 'clipboard-write'
    iframe.setAttribute('aria-hidden', 'true')
    iframe.tabIndex = -1
    iframe.dataset.sigilFrame = ''
    iframe.style.cssText = HIDDEN
    this.iframe = iframe

    let readyResolve: () => void = () => {}
    let readyReject: (e: Error) => void = () => {}
    const ready = new Promise<void>((resolve, reject) => {
      readyResolve = resolve
      readyReject = reject
    })
    const loadTimer = setTimeout(() => readyReject(new SigilError(errors.embeddedWalletNetworkError, 'FRAME_LOAD')), FRAME_LOAD_TIMEOUT_MS)
    iframe.addEventListener('error', () => readyReject(new SigilError(errors.embeddedWalletNetworkError, 'FRAME_LOAD')))
    this.ready = ready
    ready.catch(() => undefined)

    this.onMessage = (event: MessageEvent) => {
      if (event.origin !== this.origin || event.source !== iframe.contentWindow) {
        // Not from our frame: dropped. Only messages shaped like ours are worth a log line.
        if (event.data && typeof event.data === 'object' && 'type' in event.data) this.log('dropped a message from', event.origin)
        return
      }
      const parsed = FrameMessage.safeParse(event.data)
      if (!parsed.success) {
        this.log('dropped an invalid message from the frame')
        return
      }
      const message = parsed.data
      if (message.type === 'FRAME_READY') {
        clearTimeout(loadTimer)
        setTimeout(readyResolve, FRAME_READY_DELAY_MS)
        return
      }
      if (message.type === 'HEARTBEAT') {
        this.lastHeartbeat = Date.now()
        return
      }
      if (message.type === 'FRAME_HEIGHT') {
        options.onHeight?.(message.payload.height)
        return
      }
      const pending = this.pending.get(message.id)
      if (!pending) return
      pending.done()
      if (message.ok) {
        const result = (ResultOf[pending.type] as z.ZodType).safeParse(message.payload)
        if (result.success) pending.resolve(result.data)
        else pending.reject(frameError(undefined, undefined))
      } else {
        pending.reject(frameError(message.error.message, message.error.code))
      }
    }
    this.win.addEventListener('message', this.onMessage)
    doc.body.appendChild(iframe)
  }

  /**
   * Sends a request once the frame is ready; resolves with its validated success payload, rejects
   * with the frame's error ('An error occurred' when it gave none), on timeout, or on abort
   * ('Request was aborted' for RPC, 'Something went wrong' otherwise).
   */
  async request<T extends AppRequestType>(type: T, payload?: Payload<T>, options: FrameRequestOptions = {}): Promise<ResultOf<T>> {
    const aborted = () => new SigilError(type === 'RPC_REQUEST' ? errors.requestAborted : errors.somethingWentWrong, 'ABORTED')
    if (options.signal?.aborted) throw aborted()
    await this.ready
    const id = randomId()
    const message = AppRequest.parse(payload === undefined ? { id, type } : { id, type, payload })
    const timeoutMs = options.timeoutMs ?? FRAME_REQUEST_TIMEOUT_MS
    return new Promise<ResultOf<T>>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined
      const onAbort = () => {
        entry.done()
        reject(aborted())
      }
      const entry: Pending = {
        type,
        resolve: resolve as (value: unknown) => void,
        reject,
        done: () => {
          this.pending.delete(id)
          if (timer) clearTimeout(timer)
          options.signal?.removeEventListener('abort', onAbort)
        },
      }
      this.pending.set(id, entry)
      if (timeoutMs > 0)
        timer = setTimeout(() => {
          entry.done()
          reject(new SigilError(errors.embeddedWalletTimeout, 'FRAME_TIMEOUT'))
        }, timeoutMs)
      options.signal?.addEventListener('abort', onAbort, { once: true })
      const target = this.iframe.contentWindow
      if (!target) {
        entry.done()
        reject(new SigilError(errors.iframeNotSet, 'FRAME_MISSING'))
        return
      }
      target.postMessage(message, this.origin)
    })
  }

  /** Shows the frame over `rect` (its approval UI), or hides it again with `undefined`. */
  show(rect: { left: number; top: number; width: number; height: number } | undefined): void {
    if (!rect) {
      this.iframe.style.cssText = HIDDEN
      this.iframe.setAttribute('aria-hidden', 'true')
      this.iframe.tabIndex = -1
      return
    }
    this.iframe.style.cssText = `position:fixed;border:0;left:${rect.left}px;top:${rect.top}px;width:${rect.width}px;height:${rect.height}px;z-index:2147483647;background:transparent;color-scheme:normal`
    this.iframe.removeAttribute('aria-hidden')
    this.iframe.tabIndex = 0
  }

  destroy(): void {
    this.win.removeEventListener('message', this.onMessage)
    for (const pending of [...this.pending.values()]) {
      pending.done()
      pending.reject(new SigilError(errors.somethingWentWrong, 'ABORTED'))
    }
    this.iframe.remove()
  }
}
