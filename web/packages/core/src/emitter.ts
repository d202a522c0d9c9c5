/** Listeners of one kind of event. */
export interface Emitter<E> {
  /** Tells every listener (those subscribed when it starts: one may unsubscribe while told). */
  emit(event: E): void
  /** Returns the unsubscribe. */
  subscribe(listener: (event: E) => void): () => void
}

export function emitter<E>(): Emitter<E> {
  const listeners = new Set<(event: E) => void>()
  return {
    emit(event) {
      for (const listener of [...listeners]) listener(event)
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
  }
}
