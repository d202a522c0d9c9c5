/**
 * The mail sink's inbox (web/e2e/mail-sink.mjs), read over HTTP: the codes and device links the
 * Sigil server really sent over SMTP.
 */
export interface Mail {
  id: number
  to: string[]
  subject: string
  text: string
  date: string
}

export async function inbox(mailUrl: string, to: string): Promise<Mail[]> {
  const res = await fetch(`${mailUrl}/messages?to=${encodeURIComponent(to)}`)
  if (!res.ok) throw new Error(`mail sink: HTTP ${res.status}`)
  return (await res.json()) as Mail[]
}

/** Waits (polling the inbox, up to `timeoutMs`) for a new mail to `to` whose subject matches, newer than `afterId`. */
export async function waitForMail(mailUrl: string, to: string, subject: RegExp, afterId = 0, timeoutMs = 20_000): Promise<Mail> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const found = (await inbox(mailUrl, to)).find((m) => m.id > afterId && subject.test(m.subject))
    if (found) return found
    if (Date.now() > deadline) throw new Error(`no mail to ${to} matching ${subject} within ${timeoutMs} ms`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

/** The newest mail id to `to` (0 when none): later mails have higher ids. */
export async function lastMailId(mailUrl: string, to: string): Promise<number> {
  return (await inbox(mailUrl, to))[0]?.id ?? 0
}

export const LOGIN_CODE = /^(\d{6}) is your Sigil login code$/
export const DEVICE_LINK = /^Approve this device to log in$/
export const CONFIRM_CODE = /^(\d{6}) confirms /

export function codeOf(mail: Mail): string {
  const code = /\b(\d{6})\b/.exec(mail.subject)?.[1]
  if (!code) throw new Error(`no code in "${mail.subject}"`)
  return code
}

export function linkOf(mail: Mail): string {
  const link = /(https?:\/\/\S+approve-device\?token=[0-9a-f]+)/.exec(mail.text)?.[1]
  if (!link) throw new Error(`no approval link in: ${mail.text}`)
  return link
}

/**
 * Approves a device as its owner does: opens the emailed link (a page that approves nothing by
 * itself) and sends its form (the "Approve this device" button). Resolves with the answer page.
 */
export async function approveDevice(link: string): Promise<string> {
  const page = await fetch(link)
  if (!page.ok) throw new Error(`approval link answered ${page.status}`)
  const token = new URL(link).searchParams.get('token') ?? ''
  const approved = await fetch(new URL('/wallet/v1/approve-device', link), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token }),
  })
  const text = await approved.text()
  if (!approved.ok) throw new Error(`approving answered ${approved.status}: ${text}`)
  return text
}
