// SPDX-License-Identifier: Apache-2.0
// Compiles devchain/contracts/*.sol with solc-js (npm `solc`, pinned in package.json; no
// network, no native solc download) into devchain/build/<Name>.json = {abi, bytecode, ...}.
// Deterministic: sources are read in sorted order with fixed compiler settings.
// Usage: node devchain/build.mjs   (exits non-zero and prints the errors on failure)
import { readFileSync, readdirSync, mkdirSync, writeFileSync, rmSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import solc from 'solc';

const here = dirname(fileURLToPath(import.meta.url));
export const CONTRACTS_DIR = join(here, 'contracts');
export const BUILD_DIR = join(here, 'build');
export const CONTRACT_NAMES = [
  'SigilToken',
  'SigilPair',
  'ContractWallet',
  'NameRegistry',
  'NameResolver',
  'FarcasterIdRegistry',
  'NoReturnToken',
  'SigilBadge',
  'SigilItems',
  'OffchainResolver',
  'UniversalResolver',
];

// Fixed settings: 'cancun' runs on anvil and on every chain Sigil configures.
const SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: 'cancun',
  outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
};

export function compile() {
  const files = readdirSync(CONTRACTS_DIR).filter((f) => f.endsWith('.sol')).sort();
  if (files.length === 0) throw new Error(`no .sol files in ${CONTRACTS_DIR}`);
  const sources = {};
  for (const f of files) sources[f] = { content: readFileSync(join(CONTRACTS_DIR, f), 'utf8') };

  const input = { language: 'Solidity', sources, settings: SETTINGS };
  const output = JSON.parse(
    solc.compile(JSON.stringify(input), {
      import: (p) => ({ error: `imports are not supported offline: ${p}` }),
    }),
  );

  const diagnostics = output.errors ?? [];
  const errors = diagnostics.filter((e) => e.severity === 'error');
  for (const w of diagnostics.filter((e) => e.severity !== 'error')) {
    process.stderr.write(`solc ${w.severity}: ${w.formattedMessage ?? w.message}\n`);
  }
  if (errors.length > 0) {
    const text = errors.map((e) => e.formattedMessage ?? e.message).join('\n');
    throw new Error(`solc ${solc.version()} failed with ${errors.length} error(s):\n${text}`);
  }

  const artifacts = {};
  for (const [sourceName, contracts] of Object.entries(output.contracts ?? {})) {
    for (const [name, c] of Object.entries(contracts)) {
      if (!c.evm.bytecode.object) continue; // interfaces have no bytecode
      if (artifacts[name]) throw new Error(`duplicate contract name ${name}`);
      artifacts[name] = {
        contractName: name,
        sourceName: `contracts/${sourceName}`,
        compiler: `solc-js ${solc.version()}`,
        abi: c.abi,
        bytecode: `0x${c.evm.bytecode.object}`,
      };
    }
  }
  for (const name of CONTRACT_NAMES) {
    if (!artifacts[name] || artifacts[name].bytecode === '0x') {
      throw new Error(`contract ${name} missing from compiler output`);
    }
  }
  return artifacts;
}

export function build() {
  const artifacts = compile();
  rmSync(BUILD_DIR, { recursive: true, force: true });
  mkdirSync(BUILD_DIR, { recursive: true });
  for (const name of Object.keys(artifacts).sort()) {
    writeFileSync(join(BUILD_DIR, `${name}.json`), `${JSON.stringify(artifacts[name], null, 2)}\n`);
  }
  return artifacts;
}

export function isBuilt() {
  return CONTRACT_NAMES.every((n) => existsSync(join(BUILD_DIR, `${n}.json`)));
}

export function loadArtifact(name) {
  return JSON.parse(readFileSync(join(BUILD_DIR, `${name}.json`), 'utf8'));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    const started = Date.now();
    const artifacts = build();
    const names = Object.keys(artifacts).sort();
    console.log(`compiled ${names.join(', ')} with solc-js ${solc.version()} in ${Date.now() - started} ms -> ${BUILD_DIR}`);
  } catch (err) {
    console.error(`build failed: ${err.message}`);
    process.exit(1);
  }
}
