#!/usr/bin/env node
/*
 * Refreshes Sigil's icon set from pinned npm packages (make icons). Its output is committed, so
 * nothing here runs on `make demo` or `make test`, and the server needs no network for icons:
 *
 *   data/icons/{networks,tokens,wallets}/*.svg   @web3icons/core (MIT), the "background" variant
 *   data/icons/NOTICE.md                         the licences, versions and which file is which icon
 *   crates/sigil-core/src/icons/set.rs           the tables the server's image routes read (include_str!)
 *   web/packages/react/src/modal/features/social/brands.ts   simple-icons (CC0-1.0) paths for the social buttons
 *
 * data/icons/sigil/ holds Sigil's own icons (the dev chain's); this script reads them, never writes them.
 * The packages are installed at the exact versions below under var/tools/icons (npm install).
 * Every licence is checked; an icon with script or an outside reference in it is refused.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const TOOLS = path.join(ROOT, 'var/tools/icons')
const PACKAGES = { 'simple-icons': '16.37.0', '@web3icons/core': '4.0.56', '@web3icons/common': '0.11.51' }
const LICENCES = { 'simple-icons': 'CC0-1.0', '@web3icons/core': 'MIT', '@web3icons/common': 'MIT' }
const VARIANT = 'background'

/*
 * Networks: the image ids of GET /public/getAssetImage/{id} (sigil_core::catalogue::ASSETS) and the
 * web3icons network each shows. Sepolia and the Solana and Bitcoin test networks show their
 * chain's icon (the set has none of their own); the dev chain has Sigil's own.
 */
const NETWORKS = {
  ethereum: ['ethereum', 'eip155', 'eip155:1', 'eip155:11155111'],
  'arbitrum-one': ['arbitrum', 'eip155:42161'],
  polygon: ['polygon', 'eip155:137'],
  base: ['base', 'eip155:8453'],
  optimism: ['optimism', 'eip155:10'],
  'binance-smart-chain': ['eip155:56'],
  gnosis: ['eip155:100'],
  avalanche: ['eip155:43114'],
  bitcoin: ['bitcoin', 'bip122', 'bip122:000000000019d6689c085ae165831e93', 'bip122:000000000933ea01ad0ee984209779ba'],
  solana: [
    'solana',
    'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
    'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
    'solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z',
  ],
  polkadot: ['polkadot'],
  cosmos: ['cosmos'],
}
/** Sigil's own network icons (data/icons/sigil/<file>), by image id. */
const OWN_NETWORKS = { 'sigil-dev.svg': ['sigil-dev', 'eip155:31337'] }

/** Tokens by symbol: the catalogue's (sigil_core::catalogue::TOKENS) that the set has. WETH and SGL have none. */
const TOKENS = ['ETH', 'USDC', 'USDT', 'DAI', 'WBTC', 'BTC', 'SOL', 'POL', 'MATIC', 'ARB', 'OP', 'BNB', 'AVAX', 'LINK', 'UNI']
/** web3icons' network names in token addresses -> CAIP-2, for lookups by token address. */
const ADDRESS_CHAINS = {
  ethereum: 'eip155:1',
  'optimistic-ethereum': 'eip155:10',
  'binance-smart-chain': 'eip155:56',
  xdai: 'eip155:100',
  'polygon-pos': 'eip155:137',
  base: 'eip155:8453',
  'arbitrum-one': 'eip155:42161',
  avalanche: 'eip155:43114',
  solana: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
}

/*
 * Wallets: a directory wallet without a logo file takes the set's icon when its name is one of
 * `names` (compared in lowercase letters and digits only; "<name> wallet" too) and its homepage
 * is on one of `hosts` or its rdns is one of `rdns`; a record with neither homepage nor rdns
 * goes by its name. Reviewed against data/wallets.json: "SafeWallet" (safecryptowallet.io) is
 * not Safe, so it keeps its initials. `brand`: the set's exchange icon, for a wallet app of that
 * exchange that carries the same logo.
 */
const WALLETS = {
  'alpha-wallet': { hosts: ['alphawallet.com'] },
  argent: { hosts: ['argent.xyz'] },
  backpack: { hosts: ['backpack.app'], rdns: ['app.backpack'] },
  clave: { hosts: ['getclave.io'] },
  coin98: { hosts: ['coin98.com'], rdns: ['com.coin98'] },
  coinbase: { hosts: ['coinbase.com'], rdns: ['com.coinbase.wallet'] },
  enkrypt: { hosts: ['enkrypt.com'], rdns: ['com.enkrypt'] },
  imtoken: { hosts: ['token.im'] },
  kraken: { hosts: ['kraken.com'] },
  ledger: { hosts: ['ledger.com'] },
  metamask: { hosts: ['metamask.io'], rdns: ['io.metamask'] },
  obvious: { hosts: ['obvious.technology'] },
  okx: { hosts: ['okx.com'], rdns: ['com.okex.wallet'] },
  phantom: { hosts: ['phantom.app', 'phantom.com'], rdns: ['app.phantom'] },
  pillar: { hosts: ['pillarproject.io'] },
  rabby: { hosts: ['rabby.io'], rdns: ['io.rabby'] },
  rainbow: { hosts: ['rainbow.me'], rdns: ['me.rainbow'] },
  ronin: { hosts: ['roninchain.com'], rdns: ['com.roninchain.wallet'] },
  safe: { hosts: ['safe.global'] },
  sender: { hosts: ['sender.org'] },
  sequence: { hosts: ['sequence.xyz'] },
  'token-pocket': { hosts: ['tokenpocket.pro'], rdns: ['pro.tokenpocket'] },
  trezor: { hosts: ['trezor.io'] },
  trust: { hosts: ['trustwallet.com'], rdns: ['com.trustwallet.app'] },
  unipass: { hosts: ['unipass.id'] },
  venly: { hosts: ['venly.io'] },
  'wallet-3': { hosts: ['wallet3.io'] },
  xdefi: { hosts: ['xdefi.io'] },
  zengo: { hosts: ['zengo.com'] },
  zerion: { hosts: ['zerion.io'], rdns: ['io.zerion.wallet'] },
  atomic: { hosts: ['atomicwallet.io'] },
  bitbox: { hosts: ['bitbox.swiss', 'shiftcrypto.ch'] },
  exodus: { hosts: ['exodus.com'] },
  keplr: { hosts: ['keplr.app'], rdns: ['app.keplr'] },
  solflare: { hosts: ['solflare.com'] },
  '1inch': { brand: true, hosts: ['1inch.io'] },
  binance: { brand: true, hosts: ['binance.com'], rdns: ['com.binance.wallet'], names: ['Binance Web3 Wallet'] },
  bybit: { brand: true, hosts: ['bybit.com'], rdns: ['com.bybit'] },
  gemini: { brand: true, hosts: ['gemini.com'], rdns: ['com.gemini.wallet'] },
  kucoin: { brand: true, hosts: ['kucoin.com'], names: ['KuCoin Web3 Wallet'] },
  'para-swap': { brand: true, hosts: ['paraswap.io'] },
  uniswap: { brand: true, hosts: ['uniswap.org'] },
}

/** The social buttons' brands (simple-icons slugs by provider id). */
const SOCIALS = { google: 'google', github: 'github', x: 'x', discord: 'discord', facebook: 'facebook', apple: 'apple', farcaster: 'farcaster' }

function install() {
  fs.mkdirSync(TOOLS, { recursive: true })
  const have = (name) => {
    try {
      return JSON.parse(fs.readFileSync(path.join(TOOLS, 'node_modules', name, 'package.json'), 'utf8')).version
    } catch {
      return undefined
    }
  }
  if (Object.entries(PACKAGES).every(([name, version]) => have(name) === version)) return
  fs.writeFileSync(path.join(TOOLS, 'package.json'), `${JSON.stringify({ private: true, dependencies: PACKAGES }, null, 2)}\n`)
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--save-exact'], { cwd: TOOLS, stdio: 'inherit' })
}

function checkLicences() {
  for (const [name, expected] of Object.entries(LICENCES)) {
    const pkg = JSON.parse(fs.readFileSync(path.join(TOOLS, 'node_modules', name, 'package.json'), 'utf8'))
    if (pkg.version !== PACKAGES[name]) throw new Error(`${name} is ${pkg.version}, expected ${PACKAGES[name]}`)
    if (pkg.license !== expected) throw new Error(`${name} ${pkg.version} says its licence is ${pkg.license}, expected ${expected}`)
  }
}

/** Refuses anything an image should not carry: script, event handlers, outside references. */
function safe(svg, what) {
  if (!svg.startsWith('<svg') || /<script|<foreignObject|\son[a-z]+\s*=|(?:href|src)\s*=\s*["'](?!#)|url\((?!#)/i.test(svg)) {
    throw new Error(`${what}: not a plain SVG image`)
  }
  return svg
}

const web3icon = async (kind, id) => {
  const file = path.join(TOOLS, 'node_modules/@web3icons/core/dist/svgs', kind, VARIANT, `${id}.svg.js`)
  return safe((await import(pathToFileURL(file).href)).default, `@web3icons/core ${kind}/${VARIANT}/${id}`)
}
const metadata = async (kind) => (await import(pathToFileURL(path.join(TOOLS, 'node_modules/@web3icons/common/dist/metadata', `${kind}.js`)).href))[kind]

const norm = (s) => s.toLowerCase().replace(/[^a-z0-9]/g, '')
const rustStr = (s) => JSON.stringify(s)
const constName = (prefix, id) => `${prefix}_${id.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`

function write(rel, text) {
  const file = path.join(ROOT, rel)
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.writeFileSync(file, text)
}

async function main() {
  install()
  checkLicences()
  for (const dir of ['networks', 'tokens', 'wallets']) fs.rmSync(path.join(ROOT, 'data/icons', dir), { recursive: true, force: true })
  const files = [] // [file, source] for the notice
  const consts = [] // Rust constants

  const assets = []
  for (const [icon, ids] of Object.entries(NETWORKS)) {
    const rel = `networks/${icon}.svg`
    write(`data/icons/${rel}`, await web3icon('networks', icon))
    files.push([rel, `@web3icons/core networks/${VARIANT}/${icon}`])
    const c = constName('NETWORK', icon)
    consts.push(`const ${c}: &str = include_str!("../../../../data/icons/${rel}");`)
    for (const id of ids) assets.push([id, c])
  }
  for (const [file, ids] of Object.entries(OWN_NETWORKS)) {
    safe(fs.readFileSync(path.join(ROOT, 'data/icons/sigil', file), 'utf8'), `data/icons/sigil/${file}`)
    const c = constName('SIGIL', file.replace(/\.svg$/, ''))
    consts.push(`const ${c}: &str = include_str!("../../../../data/icons/sigil/${file}");`)
    for (const id of ids) assets.push([id, c])
  }

  const tokenMeta = await metadata('tokens')
  const tokens = []
  const addresses = []
  for (const symbol of TOKENS) {
    const rel = `tokens/${symbol}.svg`
    write(`data/icons/${rel}`, await web3icon('tokens', symbol))
    files.push([rel, `@web3icons/core tokens/${VARIANT}/${symbol}`])
    const c = constName('TOKEN', symbol)
    consts.push(`const ${c}: &str = include_str!("../../../../data/icons/${rel}");`)
    tokens.push([symbol, c])
    const meta = tokenMeta.find((t) => t.filePath === `token:${symbol}`)
    for (const [network, address] of Object.entries(meta?.addresses ?? {})) {
      const chain = ADDRESS_CHAINS[network]
      if (!chain || !address) continue
      const key = address.startsWith('0x') ? address.toLowerCase() : address
      if (!addresses.some(([a]) => a === key)) addresses.push([key, chain, symbol])
    }
  }

  const walletMeta = await metadata('wallets')
  const exchangeMeta = await metadata('exchanges')
  const wallets = []
  for (const [icon, rule] of Object.entries(WALLETS)) {
    const kind = rule.brand ? 'exchanges' : 'wallets'
    const meta = (rule.brand ? exchangeMeta : walletMeta).find((w) => w.id === icon)
    if (!meta) throw new Error(`@web3icons/common has no ${kind} entry ${icon}`)
    const rel = `wallets/${icon}.svg`
    write(`data/icons/${rel}`, await web3icon(kind, icon))
    files.push([rel, `@web3icons/core ${kind}/${VARIANT}/${icon}`])
    const c = constName('WALLET', icon)
    consts.push(`const ${c}: &str = include_str!("../../../../data/icons/${rel}");`)
    const base = [meta.name, meta.id, ...(rule.names ?? [])].map(norm)
    const names = [...new Set(base.flatMap((n) => (n.endsWith('wallet') ? [n] : [n, `${n}wallet`])))]
    wallets.push({ icon, names, hosts: rule.hosts ?? [], rdns: rule.rdns ?? [], c })
  }

  const list = (xs) => `&[${xs.map(rustStr).join(', ')}]`
  write(
    'crates/sigil-core/src/icons/set.rs',
    `// Generated by scripts/icons.mjs from @web3icons/core ${PACKAGES['@web3icons/core']} (MIT) and
// @web3icons/common ${PACKAGES['@web3icons/common']} (MIT); data/icons/NOTICE.md has the licence. Do not edit.
use super::WalletIcon;

pub(super) const ASSETS: &[(&str, &str)] = &[
${assets.map(([id, c]) => `    (${rustStr(id)}, ${c}),`).join('\n')}
];

pub(super) const TOKENS: &[(&str, &str)] = &[
${tokens.map(([s, c]) => `    (${rustStr(s)}, ${c}),`).join('\n')}
];

/// (address, CAIP-2 chain, symbol); EVM addresses in lowercase.
pub(super) const TOKEN_ADDRESSES: &[(&str, &str, &str)] = &[
${addresses.map(([a, ch, s]) => `    (${rustStr(a)}, ${rustStr(ch)}, ${rustStr(s)}),`).join('\n')}
];

pub(super) const WALLETS: &[WalletIcon] = &[
${wallets.map((w) => `    WalletIcon { icon: ${rustStr(w.icon)}, names: ${list(w.names)}, hosts: ${list(w.hosts)}, rdns: ${list(w.rdns)}, svg: ${w.c} },`).join('\n')}
];

${consts.join('\n')}
`,
  )

  // The social buttons: simple-icons' path (24x24) and brand colour; near-black brands take the
  // text colour so they show on the dark theme too.
  const si = JSON.parse(fs.readFileSync(path.join(TOOLS, 'node_modules/simple-icons/data/simple-icons.json'), 'utf8'))
  const brands = []
  for (const [provider, slug] of Object.entries(SOCIALS)) {
    const data = si.find((i) => i.slug === slug)
    if (!data) throw new Error(`simple-icons has no ${slug}`)
    if (data.license) throw new Error(`simple-icons ${slug} has its own licence ${data.license.type}: check it before using it`)
    const svg = safe(fs.readFileSync(path.join(TOOLS, 'node_modules/simple-icons/icons', `${slug}.svg`), 'utf8'), `simple-icons ${slug}`)
    const d = /<path d="([^"]+)"\/>/.exec(svg)?.[1]
    if (!d || (svg.match(/<path/g) ?? []).length !== 1) throw new Error(`simple-icons ${slug}: expected one path`)
    const [r, g, b] = [0, 2, 4].map((i) => Number.parseInt(data.hex.slice(i, i + 2), 16))
    const dark = 0.2126 * r + 0.7152 * g + 0.0722 * b < 40
    brands.push({ provider, title: data.title, color: dark ? 'currentColor' : `#${data.hex}`, d, guidelines: data.guidelines })
    files.push([`(inline) social ${provider}`, `simple-icons ${slug}${data.guidelines ? `, brand guidelines ${data.guidelines}` : ''}`])
  }
  write(
    'web/packages/react/src/modal/features/social/brands.ts',
    `// Generated by scripts/icons.mjs from simple-icons ${PACKAGES['simple-icons']} (CC0-1.0; the brands are their owners'
// trademarks, see data/icons/NOTICE.md). Do not edit.

/** A social provider's brand icon: one path on a 24x24 grid, in the brand's colour. */
export interface BrandIcon {
  readonly title: string
  readonly color: string
  readonly path: string
}

export const BRAND_ICONS: Readonly<Record<string, BrandIcon>> = {
${brands.map((b) => `  ${b.provider}: { title: ${JSON.stringify(b.title)}, color: ${JSON.stringify(b.color)}, path: ${JSON.stringify(b.d)} },`).join('\n')}
}
`,
  )

  const mit = `MIT License

Copyright (c) 2024 0xa3k5

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.`
  write(
    'data/icons/NOTICE.md',
    `# Icons: where they come from and their licences

Generated by \`scripts/icons.mjs\` (\`make icons\`) from these npm packages, installed at exactly
these versions; the script checks each package's \`license\` field before using it.

| package | version | licence | used for |
|---|---|---|---|
| [@web3icons/core](https://www.npmjs.com/package/@web3icons/core) | ${PACKAGES['@web3icons/core']} | MIT (package.json; the LICENCE file of github.com/0xa3k5/web3icons, below) | networks, tokens, wallets (\`networks/\`, \`tokens/\`, \`wallets/\`, the "${VARIANT}" variant, unchanged) |
| [@web3icons/common](https://www.npmjs.com/package/@web3icons/common) | ${PACKAGES['@web3icons/common']} | MIT | the icons' names and token addresses (matching only) |
| [simple-icons](https://www.npmjs.com/package/simple-icons) | ${PACKAGES['simple-icons']} | CC0-1.0 (package.json and LICENSE.md) | the social sign-in buttons (paths inlined in \`web/packages/react/src/modal/features/social/brands.ts\`) |

\`sigil/\` holds Sigil's own icons (the dev chain's), made for this project, under the project's
licence. Where the set has nothing, the server draws the generated initials.

**Trademarks.** The icons show logos that are trademarks of their owners. The licences above cover
the drawings; they grant no trademark rights (CC0 1.0 section 4a says so for simple-icons). Sigil
uses each logo only to name the network, token, wallet or sign-in provider it stands for. Simple
Icons asks its users to read its disclaimer
(https://github.com/simple-icons/simple-icons/blob/develop/DISCLAIMER.md) and each brand's
guidelines (linked below where simple-icons names them).

## Files

| file | source |
|---|---|
${files.map(([f, s]) => `| ${f} | ${s} |`).join('\n')}

## @web3icons/core licence

\`\`\`
${mit}
\`\`\`
`,
  )

  // The repository's formatters, so `cargo fmt --check` and `npm run lint` pass on the output.
  execFileSync('rustfmt', ['--edition', '2021', '--config-path', path.join(ROOT, 'rustfmt.toml'), path.join(ROOT, 'crates/sigil-core/src/icons/set.rs')], { stdio: 'inherit' })
  execFileSync('npx', ['biome', 'format', '--write', 'packages/react/src/modal/features/social/brands.ts'], { cwd: path.join(ROOT, 'web'), stdio: 'inherit' })

  console.log(
    `icons: ${Object.keys(NETWORKS).length} networks (${assets.length} image ids), ${tokens.length} tokens (${addresses.length} addresses), ${wallets.length} wallets, ${brands.length} social brands`,
  )
}

await main()
