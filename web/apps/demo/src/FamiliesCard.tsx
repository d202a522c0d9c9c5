import type { BitcoinProvider } from '@sigil/adapter-bitcoin'
import type { SolanaProvider } from '@sigil/adapter-solana'
import { formatBalance, type ChainNamespace } from '@sigil/core'
import { useAppKitAccount, useAppKitProvider } from '@sigil/react'
import { useEffect, useState } from 'react'
import { DEMO_MESSAGE } from './contracts.js'
import { Field } from './Field.js'

const LABELS: Partial<Record<ChainNamespace, string>> = { eip155: 'EVM', solana: 'Solana', bip122: 'Bitcoin' }

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')

/**
 * Signs the demo message with the family's provider from useAppKitProvider, whatever reached
 * the wallet (an extension, WalletConnect): Solana's gives the ed25519 signature's bytes
 * (shown in hex), Bitcoin's a base64 BIP-322 signature.
 */
function signWith(namespace: ChainNamespace, provider: unknown, address: string): Promise<string> | undefined {
  if (namespace === 'solana') return (provider as SolanaProvider).signMessage(DEMO_MESSAGE).then(hex)
  if (namespace === 'bip122') return (provider as BitcoinProvider).signMessage({ address, message: DEMO_MESSAGE })
  return undefined
}

/** One family's account, read with useAppKitAccount({ namespace }), and the signature its Sign button made. */
function FamilyAccount({ namespace, signature }: { namespace: ChainNamespace; signature: string | undefined }) {
  const account = useAppKitAccount({ namespace })
  const label = LABELS[namespace] ?? namespace
  return (
    <>
      <Field label={`${label} status`} value={account.status ?? 'disconnected'} testId={`${namespace}-status`} />
      <Field label={`${label} address`} value={account.address ?? '—'} testId={`${namespace}-address`} />
      <Field
        label={`${label} balance`}
        value={account.balance !== undefined ? formatBalance(account.balance, account.balanceSymbol) : '—'}
        testId={`${namespace}-balance`}
      />
      {namespace !== 'eip155' ? <Field label={`${label} signature`} value={signature ?? '—'} testId={`${namespace}-signature`} /> : null}
    </>
  )
}

/** Signs the demo message with the family's provider (useAppKitProvider(namespace)). */
function SignButton({ namespace, onSigned }: { namespace: ChainNamespace; onSigned: (signature: string | undefined) => void }) {
  const { address } = useAppKitAccount({ namespace })
  const { walletProvider } = useAppKitProvider(namespace)
  // A signature belongs to the account that made it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new account clears the shown signature
  useEffect(() => onSigned(undefined), [address])
  const sign = () => {
    if (!address) return
    onSigned(undefined)
    signWith(namespace, walletProvider, address)?.then(onSigned, (error: unknown) =>
      onSigned(`error: ${error instanceof Error ? error.message : String(error)}`),
    )
  }
  return (
    <button type="button" onClick={sign} disabled={!walletProvider || !address}>
      Sign with {LABELS[namespace] ?? namespace}
    </button>
  )
}

/** Each configured family's account at once (the page is open with ?families=…). */
export function FamiliesCard({ families }: { families: readonly ChainNamespace[] }) {
  const [signatures, setSignatures] = useState<Partial<Record<ChainNamespace, string>>>({})
  const signable = families.filter((f) => f !== 'eip155')
  return (
    <section className="card" aria-labelledby="families-heading">
      <h1 id="families-heading">Chain families</h1>
      <dl>
        {families.map((namespace) => (
          <FamilyAccount key={namespace} namespace={namespace} signature={signatures[namespace]} />
        ))}
      </dl>
      {signable.length ? (
        <div className="row-actions">
          {signable.map((namespace) => (
            <SignButton key={namespace} namespace={namespace} onSigned={(signature) => setSignatures((s) => ({ ...s, [namespace]: signature }))} />
          ))}
        </div>
      ) : null}
    </section>
  )
}
