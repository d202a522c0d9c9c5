#!/usr/bin/env node
// make size: what a host page downloads, gzip -9, from the demo's Vite manifest.
//   - the library's own JS before the modal opens: the entry and its static imports, except
//     react and react-dom (budget 60 KB; exit 1 past it)
//   - react and react-dom's share, on its own line
//   - the chunks loaded when the modal opens, and those loaded later (balances after connect)
// Pass --no-build to measure the existing web/apps/demo/dist.
import { execSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'

const BUDGET = 60 * 1024
const root = new URL('..', import.meta.url).pathname
const dist = join(root, 'web/apps/demo/dist')
if (!process.argv.includes('--no-build')) execSync('npm run build', { cwd: join(root, 'web'), stdio: 'inherit' })

const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'))
const gz = (file) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length
const kb = (n) => `${(n / 1024).toFixed(1)} KB`
const isReact = (key) => manifest[key].name === 'react'

// Static import closure of an entry.
const closure = (key, seen = new Set()) => {
  if (seen.has(key)) return seen
  seen.add(key)
  for (const dep of manifest[key].imports ?? []) closure(dep, seen)
  return seen
}

const entry = Object.keys(manifest).find((k) => manifest[k].isEntry)
const initial = closure(entry)
const own = [...initial].filter((k) => !isReact(k))
const react = [...initial].filter(isReact)
const sum = (keys) => keys.reduce((n, k) => n + gz(manifest[k].file), 0)
const ownBytes = sum(own)
const reactBytes = sum(react)

const modalKey = Object.keys(manifest).find((k) => manifest[k].name === 'modal')
const onOpen = modalKey ? [...closure(modalKey)].filter((k) => !initial.has(k)) : []
const later = Object.keys(manifest).filter((k) => !initial.has(k) && !onOpen.includes(k))

console.log('Sigil demo page, gzip -9 (1 KB = 1024 bytes)')
console.log(`library JS before the modal opens: ${kb(ownBytes)} (budget ${kb(BUDGET)}) [${own.map((k) => manifest[k].file).join(', ')}]`)
console.log(`react + react-dom:                 ${kb(reactBytes)}`)
console.log(`loaded when the modal opens:       ${kb(sum(onOpen))} [${onOpen.map((k) => manifest[k].file).join(', ')}]`)
console.log(`loaded later (e.g. balances):      ${kb(sum(later))} [${later.map((k) => manifest[k].file).join(', ')}]`)
if (ownBytes > BUDGET) {
  console.error(`FAIL: the library's JS before open is ${kb(ownBytes)}, over the ${kb(BUDGET)} budget`)
  process.exit(1)
}
console.log('size: 1 passed, 0 failed')
