import { useEffect, useState } from 'react'

interface Mail {
  id: number
  to: string[]
  subject: string
  text: string
  date: string
}

const POLL_MS = 2000

/** Splits text into plain parts and links, so an approval link in a mail can be clicked. */
function Linked({ text }: { text: string }) {
  const parts = text.split(/(https?:\/\/\S+)/g)
  return (
    <>
      {parts.map((part, i) =>
        /^https?:\/\//.test(part) ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed text
          <a key={i} href={part} target="_blank" rel="noreferrer">
            {part}
          </a>
        ) : (
          part
        ),
      )}
    </>
  )
}

/**
 * The local mail sink's inbox (make demo runs one): the login codes and device links the Sigil
 * server sent, so a visitor can log in to the embedded wallet with no mail server.
 */
export function Inbox({ url }: { url: string }) {
  const [mails, setMails] = useState<Mail[]>()
  const [error, setError] = useState<string>()
  useEffect(() => {
    let live = true
    let timer: ReturnType<typeof setTimeout> | undefined
    const load = async () => {
      try {
        const res = await fetch(`${url}/messages`)
        if (!res.ok) throw new Error(`HTTP ${res.status}`)
        const list = (await res.json()) as Mail[]
        if (live) {
          setMails(list.slice(0, 10))
          setError(undefined)
        }
      } catch (e) {
        if (live) setError(e instanceof Error ? e.message : String(e))
      }
      if (live) timer = setTimeout(() => void load(), POLL_MS)
    }
    void load()
    return () => {
      live = false
      if (timer) clearTimeout(timer)
    }
  }, [url])
  return (
    <section className="card" aria-labelledby="inbox-heading">
      <h1 id="inbox-heading">Demo inbox</h1>
      <p className="note">
        Mail the Sigil server sent to the local mail sink (<code>{url}</code>): log in with any address and read the code or approval link here.
      </p>
      {error ? <p className="note" role="alert">{`The mail sink did not answer: ${error}`}</p> : null}
      {mails && mails.length === 0 ? <p className="note">No mail yet.</p> : null}
      <ul className="inbox" aria-label="Inbox" data-testid="inbox">
        {(mails ?? []).map((mail) => (
          <li key={mail.id} data-testid="inbox-mail">
            <strong>{mail.subject}</strong> <span className="note">to {mail.to.join(', ')}</span>
            <pre>
              <Linked text={mail.text} />
            </pre>
          </li>
        ))}
      </ul>
    </section>
  )
}
