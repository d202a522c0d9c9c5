import { useCallback, useEffect, useRef, useState } from 'react'

/** How long a copy button shows its check mark. */
const COPIED_MS = 1500

/**
 * Copies text to the clipboard: `copied` is true for a moment after a copy; `copy` says whether
 * the browser let it (the caller tells the visitor).
 */
export function useCopy(): { copied: boolean; copy: (text: string) => Promise<boolean> } {
  const [copied, setCopied] = useState(false)
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  useEffect(() => () => clearTimeout(timer.current), [])
  const copy = useCallback(async (text: string) => {
    try {
      await navigator.clipboard.writeText(text)
    } catch {
      return false
    }
    setCopied(true)
    clearTimeout(timer.current)
    timer.current = setTimeout(() => setCopied(false), COPIED_MS)
    return true
  }, [])
  return { copied, copy }
}
