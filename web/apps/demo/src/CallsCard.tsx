import { useAppKitAccount, useAppKitNetwork } from '@sigil/react'
import { useCallsStatus, useCapabilities, useSendCalls } from '@sigil/react/calls'
import { useEffect } from 'react'
import { encodeFunctionData } from 'viem'
import { config, devChain } from './config.js'
import { erc20Abi } from './contracts.js'
import { Field } from './Field.js'

/** 1 SGL (18 decimals). */
const ONE_SGL = 10n ** 18n

/**
 * EIP-5792 calls as a host app makes them with Sigil's hooks: approve the recipient for 1 SGL
 * and transfer it 1 SGL, in one batch. A wallet that sends atomic batches (the embedded wallet
 * as a smart account) makes it one transaction; another wallet gets the calls one by one under
 * one id, unless atomicity is required.
 */
export function CallsCard() {
  const { address } = useAppKitAccount({ namespace: 'eip155' })
  const { chainId } = useAppKitNetwork()
  const { sendCalls, data: id, error, isPending, reset } = useSendCalls()
  const status = useCallsStatus(id, { pollUntilFinal: true, intervalMs: 250 })
  const capabilities = useCapabilities({ chainIds: [`0x${devChain.id.toString(16)}`] })
  // A batch done may have changed what the account is (the embedded wallet's first one delegates it).
  const final = (status.data?.status ?? 0) >= 200
  const { refetch } = capabilities
  useEffect(() => {
    if (final) refetch()
  }, [final, refetch])
  if (!address || chainId !== devChain.id) return null
  const atomic = (capabilities.data?.[`0x${devChain.id.toString(16)}`]?.atomic as { status?: string } | undefined)?.status
  const batch = (atomicRequired: boolean) => {
    reset()
    sendCalls({
      atomicRequired,
      calls: [
        { to: config.sglAddress, data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [config.sglRecipient, ONE_SGL] }) },
        { to: config.sglAddress, data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [config.sglRecipient, ONE_SGL] }) },
      ],
    })
  }
  const code = (error as { code?: unknown } | undefined)?.code
  return (
    <section className="card" aria-labelledby="calls-heading">
      <h1 id="calls-heading">Batched calls (EIP-5792)</h1>
      <p className="note">
        <code>useSendCalls</code>, <code>useCallsStatus</code> and <code>useCapabilities</code> from <code>@sigil/react/calls</code>: approve and transfer 1 SGL
        in one batch.
      </p>
      <dl>
        <Field label="Atomic batches" value={atomic ?? (capabilities.isPending ? '…' : 'unsupported')} testId="calls-atomic" />
        <Field label="Batch id" value={id ?? '—'} testId="calls-id" />
        <Field label="Status" value={status.data ? String(status.data.status) : '—'} testId="calls-status" />
        <Field label="Transactions" value={status.data?.receipts ? String(status.data.receipts.length) : '—'} testId="calls-receipts" />
        {error ? <Field label="Error" value={`${code !== undefined ? `${String(code)}: ` : ''}${error.message}`} testId="calls-error" /> : null}
      </dl>
      <div className="row-actions">
        <button type="button" onClick={() => batch(false)} disabled={isPending}>
          Approve + transfer 1 SGL
        </button>
        <button type="button" onClick={() => batch(true)} disabled={isPending}>
          …all or nothing
        </button>
      </div>
    </section>
  )
}
