import type { BitcoinProvider, MessageProtocol } from '@sigil/adapter-bitcoin'
import { useAppKitAccount, useAppKitProvider } from '@sigil/react'
import { useEffect, useState } from 'react'
import { DEMO_MESSAGE } from './contracts.js'
import { Field } from './Field.js'

const errorText = (error: unknown) => {
  const code = (error as { code?: unknown }).code
  return `${code !== undefined ? `${String(code)}: ` : ''}${error instanceof Error ? error.message : String(error)}`
}

/**
 * The connected Bitcoin wallet's provider from useAppKitProvider('bip122'): a message signed
 * with the payment address's key (legacy ECDSA or BIP-322), and a PSBT (base64, e.g. from a
 * wallet tool or the regtest node) signed for the payment address's inputs.
 */
export function BitcoinCard() {
  const { walletProvider, walletProviderType } = useAppKitProvider<BitcoinProvider>('bip122')
  const { address } = useAppKitAccount({ namespace: 'bip122' })
  const [messageSignature, setMessageSignature] = useState<string>()
  const [psbt, setPsbt] = useState('')
  const [signedPsbt, setSignedPsbt] = useState<string>()
  const [error, setError] = useState<string>()

  // What was signed belongs to the account that signed it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new account clears the results
  useEffect(() => {
    setMessageSignature(undefined)
    setSignedPsbt(undefined)
    setError(undefined)
  }, [address])

  const run = async <T,>(task: () => Promise<T>, done: (result: T) => void) => {
    setError(undefined)
    try {
      done(await task())
    } catch (e) {
      setError(errorText(e))
    }
  }
  const signMessage = (protocol: MessageProtocol) => {
    if (!walletProvider || !address) return
    void run(() => walletProvider.signMessage({ address, message: DEMO_MESSAGE, protocol }), setMessageSignature)
  }
  const signPsbt = () => {
    if (!walletProvider || !address) return
    void run(
      () => walletProvider.signPsbt({ psbt: psbt.trim() }),
      (signed) => setSignedPsbt(signed.psbt),
    )
  }

  return (
    <section className="card" aria-labelledby="bitcoin-heading">
      <h1 id="bitcoin-heading">Bitcoin provider</h1>
      <p className="note">
        <code>useAppKitProvider('bip122')</code> gives the connected Bitcoin wallet's provider ({walletProviderType ?? 'none yet'}). Messages are signed with
        the payment address: "{DEMO_MESSAGE}".
      </p>
      <dl>
        <Field label="Message signature" value={messageSignature ?? '—'} testId="btc-message-signature" />
        <Field label="Signed PSBT" value={signedPsbt ?? '—'} testId="btc-signed-psbt" />
        {error ? <Field label="Error" value={error} testId="btc-error" /> : null}
      </dl>
      <label className="stack">
        PSBT to sign (base64)
        <textarea rows={3} value={psbt} onChange={(e) => setPsbt(e.target.value)} spellCheck={false} />
      </label>
      <div className="row-actions">
        <button type="button" onClick={() => signMessage('ecdsa')} disabled={!walletProvider}>
          Sign message (ECDSA)
        </button>
        <button type="button" onClick={() => signMessage('bip322')} disabled={!walletProvider}>
          Sign message (BIP-322)
        </button>
        <button type="button" onClick={signPsbt} disabled={!walletProvider || !psbt.trim()}>
          Sign PSBT
        </button>
      </div>
    </section>
  )
}
