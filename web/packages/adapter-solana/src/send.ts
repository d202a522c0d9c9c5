/*
 * Building and sending transfers with @solana/kit: SOL through the System program, SPL tokens
 * (either token program, found from the mint's owner) with transferChecked, creating the
 * receiver's associated token account when it has none. The wallet signs and sends; this waits
 * until the cluster reports the signature confirmed. Loaded on first send only.
 */
import { getTransferSolInstruction } from '@solana-program/system'
import { findAssociatedTokenPda, getCreateAssociatedTokenIdempotentInstruction, getTransferCheckedInstruction } from '@solana-program/token'
import {
  address,
  appendTransactionMessageInstructions,
  compileTransaction,
  createNoopSigner,
  createTransactionMessage,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  type Blockhash,
  type Instruction,
} from '@solana/kit'
import type { SolanaProvider } from './provider.js'
import { call } from './rpc.js'

export interface SolanaTransfer {
  to: string
  /** In lamports, or the token's smallest unit. */
  amount: bigint
  token?: { address: string; decimals: number }
  /** The cluster's JSON-RPC endpoint (the Sigil server's proxy). */
  rpcUrl: string
  /** How long to wait for confirmation (default 60 s). */
  timeoutMs?: number
}

/** The instructions of a transfer from `owner`. */
async function instructionsFor(owner: string, transfer: SolanaTransfer): Promise<Instruction[]> {
  const from = createNoopSigner(address(owner))
  const to = address(transfer.to)
  if (!transfer.token) return [getTransferSolInstruction({ source: from, destination: to, amount: transfer.amount })]
  const mint = address(transfer.token.address)
  const info = await call<{ value: { owner: string } | null }>(transfer.rpcUrl, 'getAccountInfo', [mint, { encoding: 'base64', commitment: 'confirmed' }])
  if (!info.value) throw new Error(`No mint account at ${mint}`)
  const tokenProgram = address(info.value.owner)
  const [source] = await findAssociatedTokenPda({ mint, owner: from.address, tokenProgram })
  const [destination] = await findAssociatedTokenPda({ mint, owner: to, tokenProgram })
  return [
    getCreateAssociatedTokenIdempotentInstruction({ payer: from, ata: destination, owner: to, mint, tokenProgram }),
    getTransferCheckedInstruction(
      { source, mint, destination, authority: from, amount: transfer.amount, decimals: transfer.token.decimals },
      { programAddress: tokenProgram },
    ),
  ]
}

/** Waits until `signature` is confirmed (or final); throws its error when it failed. */
async function confirmed(rpcUrl: string, signature: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  let delay = 250
  for (;;) {
    const { value } = await call<{ value: ({ err: unknown; confirmationStatus?: string } | null)[] }>(rpcUrl, 'getSignatureStatuses', [[signature]])
    const status = value[0]
    if (status?.err) throw new Error(`Transaction ${signature} failed: ${JSON.stringify(status.err)}`)
    if (status && (status.confirmationStatus === 'confirmed' || status.confirmationStatus === 'finalized')) return
    if (Date.now() > deadline) throw new Error(`Transaction ${signature} was not confirmed in time`)
    await new Promise((resolve) => setTimeout(resolve, delay))
    delay = Math.min(delay * 2, 2000)
  }
}

/** Builds the transfer, has the wallet sign and send it, waits for confirmation; resolves to the signature. */
export async function sendSolanaTransfer(provider: SolanaProvider, transfer: SolanaTransfer): Promise<string> {
  const instructions = await instructionsFor(provider.address, transfer)
  const { value: latest } = await call<{ value: { blockhash: string; lastValidBlockHeight: number } }>(transfer.rpcUrl, 'getLatestBlockhash', [
    { commitment: 'confirmed' },
  ])
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(createNoopSigner(address(provider.address)), m),
    (m) =>
      setTransactionMessageLifetimeUsingBlockhash({ blockhash: latest.blockhash as Blockhash, lastValidBlockHeight: BigInt(latest.lastValidBlockHeight) }, m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  )
  const signature = await provider.signAndSendTransaction(compileTransaction(message), { preflightCommitment: 'confirmed' })
  await confirmed(transfer.rpcUrl, signature, transfer.timeoutMs ?? 60_000)
  return signature
}
