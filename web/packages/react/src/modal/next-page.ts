import { useEffect, type RefObject } from 'react'

/**
 * Asks for the next page when `end` (a marker after a list's last item) scrolls into view
 * within `root`, while `armed` (there is a next page and none is on its way). `loaded` is how
 * many items are shown: observing again after each page asks again while the end is still in
 * view. Without IntersectionObserver nothing is asked (the list's 'Load more' button remains).
 */
export function useNextPageOnScroll(
  end: RefObject<HTMLElement | null>,
  root: RefObject<HTMLElement | null>,
  armed: boolean,
  loaded: number,
  next: () => void,
): void {
  // biome-ignore lint/correctness/useExhaustiveDependencies: loaded: observe again once a page arrived; next is read when the end shows
  useEffect(() => {
    const target = end.current
    if (!target || !armed || typeof IntersectionObserver === 'undefined') return
    const observer = new IntersectionObserver(
      (records) => {
        if (records.some((r) => r.isIntersecting)) next()
      },
      { root: root.current, rootMargin: '0px 0px 120px 0px' },
    )
    observer.observe(target)
    return () => observer.disconnect()
  }, [end, root, armed, loaded])
}
