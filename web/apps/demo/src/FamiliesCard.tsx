import { formatBalance, type ChainNamespace } from '@sigil/core'
import { useAppKitAccount } from '@sigil/react'
import { Field } from './Field.js'

const LABELS: Partial<Record<ChainNamespace, string>> = { eip155: 'EVM', solana: 'Solana', bip122: 'Bitcoin' }

/** One family's account, read with useAppKitAccount({ namespace }). */
function FamilyAccount({ namespace }: { namespace: ChainNamespace }) {
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
    </>
  )
}

/** Each configured family's account at once (the page is open with ?families=…). */
export function FamiliesCard({ families }: { families: readonly ChainNamespace[] }) {
  return (
    <section className="card" aria-labelledby="families-heading">
      <h1 id="families-heading">Chain families</h1>
      <dl>
        {families.map((namespace) => (
          <FamilyAccount key={namespace} namespace={namespace} />
        ))}
      </dl>
    </section>
  )
}
