import { useAppKitAccount, useAppKitNetwork, useAppKitProvider, type Eip1193Provider } from '@sigil/react'
import { useEffect, useState } from 'react'
import { createWalletClient, custom, formatEther, formatUnits } from 'viem'
import { config, devChain } from './config.js'
import { DEMO_MESSAGE, erc20Abi, greetingTypedData } from './contracts.js'
import { Field } from './Field.js'

/**
 * The connected wallet's EIP-1193 provider from useAppKitProvider, used directly: viem signs
 * typed data over it (`custom(provider)`), and ethers v6's BrowserProvider reads balances
 * through it (ethers loads on demand).
 */
export function ProviderCard({ refreshKey }: { refreshKey: string | undefined }) {
  const { walletProvider, walletProviderType } = useAppKitProvider<Eip1193Provider>('eip155')
  const { address } = useAppKitAccount({ namespace: 'eip155' })
  const { chainId } = useAppKitNetwork()
  const [signature, setSignature] = useState<string>()
  const [signError, setSignError] = useState<string>()
  const [balances, setBalances] = useState<{ eth: bigint; sgl: bigint | undefined }>()
  const [readError, setReadError] = useState<string>()

  // A new account, chain or transaction: read the balances again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: refreshKey (the last receipt) only asks for a new read
  useEffect(() => {
    setBalances(undefined)
    setReadError(undefined)
    if (!walletProvider || !address) return
    let current = true
    ;(async () => {
      const { BrowserProvider, Contract } = await import('ethers')
      // 'any': the wallet may move to another chain while this provider lives.
      const provider = new BrowserProvider(walletProvider, 'any')
      const eth = await provider.getBalance(address)
      const sgl =
        chainId === devChain.id ? ((await new Contract(config.sglAddress, erc20Abi, provider).getFunction('balanceOf')(address)) as bigint) : undefined
      if (current) setBalances({ eth, sgl })
    })().catch((error: unknown) => current && setReadError(error instanceof Error ? error.message : String(error)))
    return () => {
      current = false
    }
  }, [walletProvider, address, chainId, refreshKey])

  // A signature belongs to the account that made it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new account or chain clears the shown signature
  useEffect(() => {
    setSignature(undefined)
    setPersonal(undefined)
    setSignError(undefined)
  }, [address, chainId])

  const [personal, setPersonal] = useState<string>()
  // personal_sign straight over the provider (EIP-1193), as a site without viem would.
  const signMessage = async () => {
    if (!walletProvider || !address) return
    setSignError(undefined)
    try {
      const hex = `0x${Array.from(new TextEncoder().encode(DEMO_MESSAGE), (b) => b.toString(16).padStart(2, '0')).join('')}`
      setPersonal((await walletProvider.request({ method: 'personal_sign', params: [hex, address] })) as string)
    } catch (error) {
      setSignError(error instanceof Error ? error.message : String(error))
    }
  }

  const signTypedData = async () => {
    if (!walletProvider || !address) return
    setSignError(undefined)
    try {
      const wallet = createWalletClient({ account: address as `0x${string}`, transport: custom(walletProvider) })
      setSignature(await wallet.signTypedData(greetingTypedData(address as `0x${string}`, Number(chainId))))
    } catch (error) {
      setSignError((error as { shortMessage?: string }).shortMessage ?? (error instanceof Error ? error.message : String(error)))
    }
  }

  return (
    <section className="card" aria-labelledby="provider-heading">
      <h1 id="provider-heading">Wallet provider</h1>
      <p className="note">
        <code>useAppKitProvider('eip155')</code> gives the connected wallet's EIP-1193 provider ({walletProviderType ?? 'none yet'}).
      </p>
      <dl>
        <Field label="ETH (ethers)" value={balances ? `${formatEther(balances.eth)} ETH` : '—'} wei={balances?.eth.toString()} testId="ethers-eth-balance" />
        <Field
          label="SGL (ethers)"
          value={balances?.sgl !== undefined ? `${formatUnits(balances.sgl, 18)} SGL` : '—'}
          wei={balances?.sgl?.toString()}
          testId="ethers-sgl-balance"
        />
        {readError ? <Field label="Error" value={readError} testId="ethers-error" /> : null}
        <Field label="Signature" value={signature ?? '—'} testId="typed-signature" />
        <Field label="Message signature" value={personal ?? '—'} testId="personal-signature" />
        {signError ? <Field label="Error" value={signError} testId="typed-signature-error" /> : null}
      </dl>
      <div className="row-actions">
        <button type="button" onClick={() => void signTypedData()} disabled={!walletProvider}>
          Sign typed data
        </button>
        <button type="button" onClick={() => void signMessage()} disabled={!walletProvider}>
          Sign message
        </button>
      </div>
    </section>
  )
}
