import { Wallet } from './wallet'

export default function Page() {
  return (
    <main style={{ maxWidth: 640, margin: '48px auto', padding: '0 16px' }}>
      <h1>Sigil on Next.js</h1>
      <p>
        The button below is rendered on the server with a modal instance of this request's own, and hydrated in the browser. A wallet connected here is
        connected again after a reload.
      </p>
      <Wallet />
    </main>
  )
}
