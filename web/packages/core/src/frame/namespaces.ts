import type { ChainNamespace } from '../types.js'

/** The namespaces the embedded wallet holds an account in (its frame protocol's user accounts), the first its main one. */
export const FRAME_NAMESPACES = ['eip155', 'solana'] as const satisfies readonly ChainNamespace[]
