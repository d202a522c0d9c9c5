/**
 * Something made on first use (typically a chunk loaded with `import()`) and shared by every use
 * after; when making it failed, the next use makes it again rather than keep the failure.
 */
export interface OnDemand<T> {
  /** The thing, made now if it was not yet (or its last making failed). */
  get(): Promise<T>
  /** The thing if it was asked for already, without making it. */
  started(): Promise<T> | undefined
}

export function onDemand<T>(make: () => Promise<T>): OnDemand<T> {
  let pending: Promise<T> | undefined
  return {
    get() {
      if (!pending) {
        const made = make()
        pending = made
        made.catch(() => {
          if (pending === made) pending = undefined
        })
      }
      return pending
    },
    started: () => pending,
  }
}
