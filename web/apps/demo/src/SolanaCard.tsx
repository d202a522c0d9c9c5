import type { SolanaProvider } from '@sigil/adapter-solana'
import { useAppKitAccount, useAppKitProvider } from '@sigil/react'
import { useEffect, useState } from 'react'
import { DEMO_MESSAGE } from './contracts.js'
import { Field } from './Field.js'

/**
 * The connected Solana wallet's provider from useAppKitProvider('solana'), an extension's or
 * the embedded wallet's alike: a message signed with the account's ed25519 key.
 */
export function SolanaCard() {
  const { walletProvider, walletProviderType } = useAppKitProvider<SolanaProvider>('solana')
  const { address } = useAppKitAccount({ namespace: 'solana' })
  const [signed, setSigned] = useState<{ signature: string; signer: string }>()
  const [error, setError] = useState<string>()

  // A signature belongs to the account that made it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new account clears the result
  useEffect(() => {
    setSigned(undefined)
    setError(undefined)
  }, [address])

  const signMessage = async () => {
    if (!walletProvider) return
    setError(undefined)
    try {
      const signature = await walletProvider.signMessage(DEMO_MESSAGE)
      // Loaded here, not with the page: the page's Sigil code stays within the size budget.
      const { encodeBase58 } = await import('@sigil/adapter-solana')
      setSigned({ signature: encodeBase58(signature), signer: walletProvider.address })
    } catch (e) {
      const code = (e as { code?: unknown }).code
      setError(`${code !== undefined ? `${String(code)}: ` : ''}${e instanceof Error ? e.message : String(e)}`)
    }
  }

  return (
    <section className="card" aria-labelledby="solana-heading">
      <h1 id="solana-heading">Solana provider</h1>
      <p className="note">
        <code>useAppKitProvider('solana')</code> gives the connected Solana wallet's provider ({walletProviderType ?? 'none yet'}); the message is "
        {DEMO_MESSAGE}".
      </p>
      <dl>
        <Field label="Signed by" value={signed?.signer ?? '—'} testId="sol-message-signer" />
        <Field label="Signature" value={signed?.signature ?? '—'} testId="sol-message-signature" />
        {error ? <Field label="Error" value={error} testId="sol-error" /> : null}
      </dl>
      <div className="row-actions">
        <button type="button" onClick={() => void signMessage()} disabled={!walletProvider}>
          Sign Solana message
        </button>
      </div>
    </section>
  )
}
