#!/usr/bin/env node
// A local mail sink: an SMTP server (npm smtp-server) that keeps every message it receives in
// memory, and an HTTP inbox to read them (npm mailparser parses them). The Sigil server sends its
// login codes and device links here in `make demo` and the browser tests, so nobody needs a mail
// server. Both listen on 127.0.0.1 only.
//   node web/e2e/mail-sink.mjs [--smtp-port N] [--http-port N]   (0 = any free port)
// Prints one line of JSON once both listen: {"smtp": N, "http": N}.
//   GET /messages[?to=addr]  newest first: [{id, to, from, subject, text, date}]
//   DELETE /messages         empties the inbox
// The inbox answers any origin (the demo page shows it).
import { createServer } from 'node:http'
import { simpleParser } from 'mailparser'
import { SMTPServer } from 'smtp-server'

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name)
  return i > 0 ? Number(process.argv[i + 1]) : fallback
}
const MAX_MESSAGES = 500
const inbox = []
let next = 1

const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  banner: 'Sigil mail sink',
  size: 1024 * 1024,
  onData(stream, session, callback) {
    simpleParser(stream)
      .then((mail) => {
        const to = session.envelope.rcptTo.map((r) => r.address.toLowerCase())
        inbox.unshift({
          id: next++,
          to,
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          subject: mail.subject ?? '',
          text: mail.text ?? '',
          date: new Date().toISOString(),
        })
        inbox.length = Math.min(inbox.length, MAX_MESSAGES)
        callback()
      })
      .catch((error) => callback(error))
  },
})

const http = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1')
  res.setHeader('access-control-allow-origin', '*')
  res.setHeader('access-control-allow-methods', 'GET, DELETE')
  res.setHeader('cache-control', 'no-store')
  if (req.method === 'OPTIONS') {
    res.writeHead(204).end()
    return
  }
  if (url.pathname === '/messages' && req.method === 'GET') {
    const to = url.searchParams.get('to')?.toLowerCase()
    const list = to ? inbox.filter((m) => m.to.includes(to)) : inbox
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(list))
    return
  }
  if (url.pathname === '/messages' && req.method === 'DELETE') {
    inbox.length = 0
    res.writeHead(204).end()
    return
  }
  if (url.pathname === '/health') {
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok')
    return
  }
  res.writeHead(404, { 'content-type': 'text/plain' }).end('not found')
})

const listen = (server, port) =>
  new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => resolve(server.address().port))
  })

const [smtpPort, httpPort] = await Promise.all([listen(smtp.server, arg('--smtp-port', 0)), listen(http, arg('--http-port', 0))])
console.log(JSON.stringify({ smtp: smtpPort, http: httpPort }))
const stop = () => {
  smtp.close(() => undefined)
  http.close(() => process.exit(0))
  setTimeout(() => process.exit(0), 500).unref()
}
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
