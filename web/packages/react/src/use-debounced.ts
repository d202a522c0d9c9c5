import { useEffect, useState } from 'react'

/** A value that follows `value` after `delay` ms of quiet; at once when `immediate` says so (an emptied search field). */
export function useDebounced<T>(value: T, delay: number, immediate?: (value: T) => boolean): T {
  const [debounced, setDebounced] = useState(value)
  // biome-ignore lint/correctness/useExhaustiveDependencies: immediate is often an inline function: only a new value or delay restarts the timer
  useEffect(() => {
    if (immediate?.(value)) {
      setDebounced(value)
      return
    }
    const timer = setTimeout(() => setDebounced(value), delay)
    return () => clearTimeout(timer)
  }, [value, delay])
  return debounced
}
