#!/usr/bin/env node
// make size: what a host page downloads, gzip -9, from the demo's Vite manifest. The demo's
// build puts each owner's code in chunks of its own (web/apps/demo/vite.config.ts): react, the
// libraries the page itself uses (wagmi, viem, react-query; ethers on demand), the page's own
// code, and Sigil's code that loads with the page. Tiers:
//   - Sigil's JS before the modal opens (budget 20 KB; exit 1 past it)
//   - the Connect view opened with email and socials on: the modal chunk, the connect feature and
//     the email/socials chunk, with what they import that is not loaded yet
//   - each feature chunk loaded later (views, directory client, sign-in, balances, checksums)
//   - the page's own share (react, its libraries, its code), each on its own line
// Also reported, not budgeted: the Next.js example's page (web/apps/next), the scripts it loads
// before any interaction, from its .next build output (web's `npm run build` builds it too).
// Pass --no-build to measure the existing web/apps/demo/dist and web/apps/next/.next.
import { execSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'

const BUDGET = 20 * 1024
const root = new URL('..', import.meta.url).pathname
const dist = join(root, 'web/apps/demo/dist')
if (!process.argv.includes('--no-build')) execSync('npm run build', { cwd: join(root, 'web'), stdio: 'inherit' })

const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'))
const keys = Object.keys(manifest).filter((k) => manifest[k].file.endsWith('.js'))
const gz = (key) => gzipSync(readFileSync(join(dist, manifest[key].file)), { level: 9 }).length
const kb = (n) => `${(n / 1024).toFixed(1)} KB`
const sum = (list) => list.reduce((n, k) => n + gz(k), 0)
const files = (list) => list.map((k) => manifest[k].file.replace(/^assets\//, '')).join(', ')

// Static import closure of a chunk.
const closure = (key, seen = new Set()) => {
  if (seen.has(key)) return seen
  seen.add(key)
  for (const dep of manifest[key].imports ?? []) closure(dep, seen)
  return seen
}

/** Chunks that are not Sigil's: the page's (Vite's entry facade, its code) and its libraries. */
const PAGE = { react: 'react + react-dom', wagmi: 'wagmi, viem, react-query', ethers: 'ethers (on demand)', demo: "the page's own code" }
const entry = keys.find((k) => manifest[k].isEntry)
const owner = (key) => (key === entry ? 'demo' : (PAGE[manifest[key].name] ? manifest[key].name : 'sigil'))
const initial = [...closure(entry)]
const sigilInitial = initial.filter((k) => owner(k) === 'sigil')
const sigilBytes = sum(sigilInitial)

const byName = (name) => keys.find((k) => manifest[k].name === name && manifest[k].isDynamicEntry)
/** What opening `names` (dynamic chunks) loads that is not loaded yet. */
const opening = (names) => {
  const loaded = new Set(initial)
  const wanted = new Set()
  for (const name of names) {
    const key = byName(name)
    if (!key) throw new Error(`no '${name}' chunk in the demo build`)
    for (const k of closure(key)) if (!loaded.has(k)) wanted.add(k)
  }
  return [...wanted]
}
const connectView = opening(['modal', 'connect', 'EmailSocial'])
const counted = new Set([...initial, ...connectView])

console.log('Sigil demo page, gzip -9 (1 KB = 1024 bytes)')
console.log(`Sigil JS before the modal opens:        ${kb(sigilBytes)} = ${sigilBytes} B (budget ${kb(BUDGET)} = ${BUDGET} B, i18n in) [${files(sigilInitial)}]`)
console.log(`Connect view opened, email and socials: ${kb(sum(connectView))} more [${files(connectView)}]`)
// Each locale's words (web/packages/core/src/messages/locales/<tag>.ts): one chunk loads, at idle, for a visitor whose language is not English.
const LOCALE_CHUNK = /^([a-z]{2}|[a-z]{2}-[A-Z]{2})$/
const locales = keys.filter((k) => manifest[k].isDynamicEntry && owner(k) === 'sigil' && LOCALE_CHUNK.test(manifest[k].name) && manifest[k].src?.includes('messages/locales/'))
console.log('locale chunks (one loads, with the modal chunk, for a visitor not reading English):')
for (const key of locales) {
  const extra = [...closure(key)].filter((k) => !counted.has(k) && owner(k) === 'sigil')
  console.log(`  ${manifest[key].name.padEnd(37)} ${kb(sum(extra))} = ${sum(extra)} B [${files(extra)}]`)
}
console.log('feature chunks loaded later:')
for (const key of keys.filter((k) => manifest[k].isDynamicEntry && !counted.has(k) && owner(k) === 'sigil' && !locales.includes(k))) {
  const extra = [...closure(key)].filter((k) => !counted.has(k) && owner(k) === 'sigil')
  console.log(`  ${manifest[key].name.padEnd(37)} ${kb(sum(extra))} [${files(extra)}]`)
}
console.log("the page's own share (modules Sigil shares with wagmi, e.g. mipd and @noble/hashes, are counted there):")
for (const [name, label] of Object.entries(PAGE)) {
  const list = keys.filter((k) => owner(k) === name && (name !== 'demo' || initial.includes(k)))
  console.log(`  ${label.padEnd(37)} ${kb(sum(list))}`)
}
nextExample()
if (sigilBytes > BUDGET) {
  console.error(`FAIL: Sigil's JS before the modal opens is ${kb(sigilBytes)}, over the ${kb(BUDGET)} budget`)
  process.exit(1)
}
console.log('size: 1 passed, 0 failed')

/**
 * The Next.js example's `/` page: the scripts its server-rendered HTML loads before any
 * interaction, gzip -9: the framework's (Next's runtime, react-dom: build-manifest.json
 * rootMainFiles) and the layout's and page's client components (with Sigil's connect button and
 * hooks: the client reference manifest's entryJSFiles). The polyfills only load in browsers
 * without modules, and the modal loads on first open.
 */
function nextExample() {
  const next = join(root, 'web/apps/next/.next')
  const manifestFile = join(next, 'server/app/page_client-reference-manifest.js')
  if (!existsSync(manifestFile)) {
    console.log('Next.js example page: not built (npm run build in web/ builds it)')
    return
  }
  const { rootMainFiles } = JSON.parse(readFileSync(join(next, 'build-manifest.json'), 'utf8'))
  // The manifest is a script that sets globalThis.__RSC_MANIFEST; its JSON is the assignment's value.
  const source = readFileSync(manifestFile, 'utf8')
  const rsc = JSON.parse(source.slice(source.indexOf('= {', source.indexOf('["/page"]')) + 2).replace(/;\s*$/, ''))
  const entries = Object.entries(rsc.entryJSFiles).filter(([entry]) => /\/apps\/next\/app\/(layout|page)$/.test(entry))
  const appFiles = [...new Set(entries.flatMap(([, list]) => list))].filter((f) => !rootMainFiles.includes(f))
  const size = (list) => list.reduce((n, f) => n + gzipSync(readFileSync(join(next, f)), { level: 9 }).length, 0)
  const names = (list) => list.map((f) => f.replace(/^static\/chunks\//, '')).join(', ')
  const framework = size(rootMainFiles)
  const app = size(appFiles)
  console.log(`Next.js example page (web/apps/next), first-load JS: ${kb(framework + app)} (reported, not budgeted)`)
  console.log(`  ${'Next.js runtime, react, react-dom'.padEnd(37)} ${kb(framework)} [${names(rootMainFiles)}]`)
  console.log(`  ${'layout and page (Sigil, app router)'.padEnd(37)} ${kb(app)} [${names(appFiles)}]`)
}
