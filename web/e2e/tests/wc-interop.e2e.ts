/**
 * The relay with the official SDK on both ends, in Node: a dapp and a wallet, both
 * @walletconnect/sign-client 2.21.8, pair, settle a session and exchange personal_sign through
 * Sigil relays this suite starts itself: one process restarted between the proposal and the
 * approval (the proposal waits in the database), and two processes on one PostgreSQL database
 * with the dapp on one and the wallet on the other (LISTEN/NOTIFY between them).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SignClient } from '@walletconnect/sign-client'
import type { SessionTypes } from '@walletconnect/types'
import { getAddress, recoverMessageAddress, stringToHex, type Hex } from 'viem'
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest'
import { REPO_ROOT, SIGIL_BIN } from '../src/paths.js'
import { startNodeWallet, uniquePrefix, type NodeWallet } from '../src/wc-wallet.js'

const env = inject('e2e')
const tmp = mkdtempSync(join(tmpdir(), 'sigil-wc-interop-'))
const servers: Server[] = []
const clients: { close(): Promise<void> }[] = []

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)))
  await Promise.all(servers.splice(0).map((s) => s.stop()))
})
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer()
    srv.on('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address()
      const port = typeof address === 'object' && address ? address.port : 0
      srv.close(() => resolve(port))
    })
  })
}

interface Server {
  url: string
  relayUrl: string
  stop(): Promise<void>
}

function sigil(databaseUrl: string, args: string[]): string {
  const r = spawnSync(SIGIL_BIN, args, { cwd: REPO_ROOT, env: { ...process.env, SIGIL_DATABASE_URL: databaseUrl }, encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`sigil ${args.join(' ')} failed (${r.status}):\n${r.stdout}\n${r.stderr}`)
  return r.stdout
}

/** A project in that database; its id. */
function addProject(databaseUrl: string): string {
  const id = sigil(databaseUrl, ['project', 'add', '--name', 'interop', '--origin', 'http://127.0.0.1']).trim().split('\n').pop()?.trim() ?? ''
  if (!/^[0-9a-f]{32}$/.test(id)) throw new Error(`unexpected project id: ${id}`)
  return id
}

/** `sigil serve` on `port` with that database; resolves once /health answers. */
async function serve(databaseUrl: string, port: number, name: string): Promise<Server> {
  const log = join(tmp, `${name}.log`)
  const child: ChildProcess = spawn(SIGIL_BIN, ['serve', '--listen', `127.0.0.1:${port}`], {
    cwd: REPO_ROOT,
    env: { ...process.env, SIGIL_DATABASE_URL: databaseUrl },
    stdio: ['ignore', openSync(log, 'a'), openSync(log, 'a')],
  })
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 30_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited (${child.exitCode}):\n${readFileSync(log, 'utf8').slice(-3000)}`)
    const ok = await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    )
    if (ok) break
    if (Date.now() > deadline) throw new Error(`${name} did not answer /health in 30 s:\n${readFileSync(log, 'utf8').slice(-3000)}`)
    await new Promise((r) => setTimeout(r, 100))
  }
  const server: Server = {
    url,
    relayUrl: `ws://127.0.0.1:${port}/relay`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve()
        // SIGTERM, and SIGKILL if open sockets keep it up: either way the database keeps the messages.
        const kill = setTimeout(() => child.kill('SIGKILL'), 5000)
        child.once('exit', () => {
          clearTimeout(kill)
          resolve()
        })
        child.kill('SIGTERM')
      }),
  }
  servers.push(server)
  return server
}

/** The dapp: the same SDK a site uses, in Node, asking for personal_sign on the dev chain. */
async function dapp(relayUrl: string, projectId: string) {
  const storage = new Map<string, unknown>()
  const client = await SignClient.init({
    projectId,
    relayUrl,
    metadata: { name: 'Interop dapp', description: 'Node dapp', url: 'http://127.0.0.1', icons: [] },
    storage: {
      getKeys: async () => [...storage.keys()],
      getEntries: async () => [...storage.entries()],
      getItem: async (k: string) => storage.get(k),
      setItem: async (k: string, v: unknown) => void storage.set(k, v),
      removeItem: async (k: string) => void storage.delete(k),
      // biome-ignore lint/suspicious/noExplicitAny: the SDK's storage interface, in memory
    } as any,
    telemetryEnabled: false,
    logger: 'silent',
    customStoragePrefix: uniquePrefix('interop-dapp'),
  })
  clients.push({ close: () => client.core.relayer.transportClose() })
  const { uri, approval } = await client.connect({
    optionalNamespaces: { eip155: { chains: ['eip155:31337'], methods: ['personal_sign'], events: ['accountsChanged', 'chainChanged'] } },
  })
  if (!uri) throw new Error('connect() gave no URI')
  return { client, uri, approval }
}

async function wallet(relayUrl: string, projectId: string): Promise<NodeWallet> {
  const w = await startNodeWallet({ relayUrl, projectId, rpcUrl: env.rpcUrl })
  clients.push(w)
  return w
}

/** personal_sign from the dapp through the session; checks the wallet's key signed it. */
async function signThrough(client: InstanceType<typeof SignClient>, session: SessionTypes.Struct, w: NodeWallet) {
  const message = `interop ${Date.now()}`
  const signature = (await client.request({
    topic: session.topic,
    chainId: 'eip155:31337',
    request: { method: 'personal_sign', params: [stringToHex(message), w.address] },
  })) as Hex
  expect(await recoverMessageAddress({ message, signature })).toBe(getAddress(w.address))
}

describe('the official SDK on both ends of the Sigil relay', () => {
  it('pairs, settles and signs with the relay restarted between the proposal and the approval', async () => {
    const db = `sqlite://${join(tmp, 'restart.db')}`
    const projectId = addProject(db)
    const port = await freePort()
    let relay = await serve(db, port, 'relay-a')
    const { client, uri, approval } = await dapp(relay.relayUrl, projectId)
    // the proposal is published; the relay goes down and comes back on the same database
    await relay.stop()
    servers.splice(servers.indexOf(relay), 1)
    relay = await serve(db, port, 'relay-a-again')
    const w = await wallet(relay.relayUrl, projectId)
    const [session, walletSession] = await Promise.all([approval(), w.approve(uri, [31337])])
    expect(session.topic).toBe(walletSession.topic)
    expect(session.namespaces.eip155?.accounts).toEqual([`eip155:31337:${w.address}`])
    await signThrough(client, session, w)
  })

  it('pairs, settles and signs with the dapp on one server process and the wallet on another, both on one PostgreSQL', async () => {
    const started = spawnSync('bash', ['scripts/postgres.sh', 'start'], { cwd: REPO_ROOT, encoding: 'utf8' })
    if (started.status !== 0) throw new Error(`scripts/postgres.sh start failed:\n${started.stderr}`)
    const admin = started.stdout.trim().split('\n').pop() ?? ''
    const name = `sigil_wc_interop_${process.pid}_${Date.now()}`
    const created = spawnSync('psql', [admin, '-v', 'ON_ERROR_STOP=1', '-qc', `CREATE DATABASE ${name}`], { encoding: 'utf8' })
    if (created.status !== 0) throw new Error(`CREATE DATABASE failed:\n${created.stderr}`)
    const db = admin.replace(/\/[^/]*$/, `/${name}`)
    try {
      const projectId = addProject(db)
      const [one, two] = await Promise.all([serve(db, await freePort(), 'relay-pg-1'), serve(db, await freePort(), 'relay-pg-2')])
      const { client, uri, approval } = await dapp(one.relayUrl, projectId)
      const w = await wallet(two.relayUrl, projectId)
      const [session] = await Promise.all([approval(), w.approve(uri, [31337])])
      expect(session.namespaces.eip155?.accounts).toEqual([`eip155:31337:${w.address}`])
      await signThrough(client, session, w)
    } finally {
      await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)))
      await Promise.all(servers.splice(0).map((s) => s.stop()))
      spawnSync('psql', [admin, '-qc', `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`], { encoding: 'utf8' })
    }
  })
})
