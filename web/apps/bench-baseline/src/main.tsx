// The baseline of make bench-ui: the cheapest React dialog with a list, to measure the modal against.
import { useState } from 'react'
import { createRoot } from 'react-dom/client'

const items = Array.from({ length: 40 }, (_, i) => `Wallet ${i + 1}`)

function App() {
  const [open, setOpen] = useState(false)
  return (
    <main>
      <button type="button" id="connect" onClick={() => setOpen(true)}>
        Connect
      </button>
      {open ? (
        <div
          role="dialog"
          aria-label="Connect Wallet"
          style={{ position: 'fixed', inset: 0, margin: 'auto', width: 360, height: 480, overflow: 'auto', background: '#fff' }}
        >
          {items.map((name) => (
            <button type="button" key={name} style={{ display: 'block', width: '100%' }}>
              {name}
            </button>
          ))}
        </div>
      ) : null}
    </main>
  )
}

const root = document.getElementById('root')
if (!root) throw new Error('index.html has no #root')
createRoot(root).render(<App />)
