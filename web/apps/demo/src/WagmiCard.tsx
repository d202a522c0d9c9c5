import { useEffect } from 'react'
import { parseUnits } from 'viem'
import { useChainId, useChains, useConnection, useDisconnect, useSwitchChain, useWaitForTransactionReceipt, useWriteContract } from 'wagmi'
import { config, devChain } from './config.js'
import { erc20Abi } from './contracts.js'
import { Field } from './Field.js'

const errorText = (error: Error | null) => (error ? ((error as { shortMessage?: string }).shortMessage ?? error.message) : undefined)

/**
 * The same connection through wagmi's hooks (the Sigil wagmi adapter keeps wagmi in step with
 * the modal): status, account and chain, switching and disconnecting with wagmi, and 1 SGL sent
 * with useWriteContract and followed with useWaitForTransactionReceipt.
 */
export function WagmiCard({ onReceipt }: { onReceipt(hash: string): void }) {
  const connection = useConnection()
  const chainId = useChainId()
  const chains = useChains()
  const switchChain = useSwitchChain()
  const disconnect = useDisconnect()
  const transfer = useWriteContract()
  const receipt = useWaitForTransactionReceipt({ hash: transfer.data, chainId: devChain.id as number })
  const onDevChain = connection.isConnected && connection.chainId === devChain.id
  const mined = receipt.data?.transactionHash
  useEffect(() => {
    if (mined) onReceipt(mined)
  }, [mined, onReceipt])

  const send = () =>
    transfer.mutate({
      abi: erc20Abi,
      address: config.sglAddress,
      functionName: 'transfer',
      args: [config.sglRecipient, parseUnits('1', 18)],
      chainId: devChain.id as number,
    })

  let txStatus = '—'
  if (transfer.isPending) txStatus = 'confirm in the wallet…'
  else if (transfer.error) txStatus = 'failed'
  else if (receipt.data) txStatus = receipt.data.status
  else if (transfer.data) txStatus = receipt.error ? 'failed' : 'pending…'

  return (
    <section className="card" aria-labelledby="wagmi-heading">
      <h1 id="wagmi-heading">wagmi</h1>
      <dl>
        <Field label="Status" value={connection.status} testId="wagmi-status" />
        <Field label="Address" value={connection.address ?? '—'} testId="wagmi-address" />
        <Field label="Chain id" value={String(chainId)} testId="wagmi-chain-id" />
      </dl>
      {/* biome-ignore lint/a11y/useSemanticElements: a row of buttons, not form fields */}
      <div className="row-actions" role="group" aria-label="Switch chain with wagmi">
        {chains.map((chain) => (
          <button
            key={chain.id}
            type="button"
            aria-label={`Switch to ${chain.name} with wagmi`}
            aria-pressed={connection.isConnected && connection.chainId === chain.id}
            disabled={!connection.isConnected || switchChain.isPending}
            onClick={() => switchChain.mutate({ chainId: chain.id })}
          >
            {chain.name}
          </button>
        ))}
        <button type="button" onClick={() => disconnect.mutate()} disabled={!connection.isConnected}>
          Disconnect with wagmi
        </button>
      </div>
      {switchChain.error ? (
        <p className="note" role="alert" data-testid="wagmi-switch-error">
          {errorText(switchChain.error)}
        </p>
      ) : null}
      <h2>Send 1 SGL</h2>
      <p className="note">
        To <code>{config.sglRecipient}</code> on the dev chain, with <code>useWriteContract</code>; the receipt comes from{' '}
        <code>useWaitForTransactionReceipt</code>.
      </p>
      <dl>
        <Field label="Transaction" value={transfer.data ?? '—'} testId="sgl-tx-hash" />
        <Field label="Receipt" value={txStatus} testId="sgl-tx-status" />
        {transfer.error || receipt.error ? <Field label="Error" value={errorText(transfer.error ?? receipt.error) ?? ''} testId="sgl-tx-error" /> : null}
      </dl>
      <div className="row-actions">
        <button type="button" onClick={send} disabled={!onDevChain || transfer.isPending}>
          Send 1 SGL
        </button>
      </div>
    </section>
  )
}
