import { describe, expect, it } from 'vitest'
import {
  ChainDisconnectedError,
  DisconnectError,
  ErrorMessages,
  errorCode,
  errorText,
  InternalRpcError,
  InvalidParamsRpcError,
  InvalidRequestRpcError,
  isUserRejection,
  LimitExceededRpcError,
  MethodNotFoundRpcError,
  ParseRpcError,
  ProviderDisconnectedError,
  RpcErrorCode,
  RpcErrorMessages,
  SigilError,
  SwitchChainError,
  toSigilError,
  tryAgainAfter,
  UnauthorizedProviderError,
  UnsupportedProviderMethodError,
  UserRejectedRequestError,
} from './errors.js'
import { featureErrors } from './messages/features.js'

describe('error catalogue', () => {
  it('has the spec codes and texts', () => {
    expect(RpcErrorCode).toMatchObject({
      parse: -32700,
      invalidRequest: -32600,
      methodNotFound: -32601,
      invalidParams: -32602,
      internal: -32603,
      userRejected: 4001,
      unauthorized: 4100,
      unsupportedMethod: 4200,
      providerDisconnected: 4900,
      chainDisconnected: 4901,
      unrecognizedChain: 4902,
      limitExceeded: -32005,
      defaultError: 5000,
      invalidChainId: 32603,
    })
    expect(RpcErrorMessages[4001]).toBe('User rejected the request.')
    expect(ErrorMessages.projectIdNotConfigured).toBe('Project ID Not Configured')
    expect(featureErrors.requestTimeout).toBe('The request took too long to respond.')
    expect(tryAgainAfter(12_001)).toBe('Please try again after 13 seconds')
  })

  it('maps wallet errors by code, nested causes included', () => {
    const rejected = toSigilError({ code: 4001, message: 'MetaMask Tx Signature: User denied.' })
    expect(rejected).toBeInstanceOf(SigilError)
    expect(rejected.message).toBe('User rejected the request.')
    expect(rejected.code).toBe(4001)
    expect(isUserRejection(new Error('x', { cause: { code: 4001 } }))).toBe(true)
    expect(errorCode({ code: '4902' })).toBe(4902)
  })

  it('falls back to the error message, then Unknown error', () => {
    expect(toSigilError(new Error('boom')).message).toBe('boom')
    expect(toSigilError({ code: 12345, message: 'odd' }).code).toBe(12345)
    expect(toSigilError(undefined).message).toBe('Unknown error')
    expect(toSigilError(undefined).code).toBe(5000)
    const original = new SigilError('kept', 'X')
    expect(toSigilError(original)).toBe(original)
  })

  it('each catalogued code has its class, with the literal code and the catalogue text', () => {
    const classes = [
      [-32700, ParseRpcError],
      [-32600, InvalidRequestRpcError],
      [-32601, MethodNotFoundRpcError],
      [-32602, InvalidParamsRpcError],
      [-32603, InternalRpcError],
      [-32005, LimitExceededRpcError],
      [4001, UserRejectedRequestError],
      [4100, UnauthorizedProviderError],
      [4200, UnsupportedProviderMethodError],
      [4900, ProviderDisconnectedError],
      [4901, ChainDisconnectedError],
      [4902, SwitchChainError],
    ] as const
    for (const [code, Class] of classes) {
      const fromWallet = { code, message: 'the wallet says something else' }
      const mapped = toSigilError(fromWallet)
      expect(mapped, String(code)).toBeInstanceOf(Class)
      expect(mapped.code).toBe(code)
      expect(mapped.message).toBe(RpcErrorMessages[code])
      expect(mapped.cause).toBe(fromWallet)
      expect(new Class().code).toBe(code)
    }
    // the literal code is in the type: this would not compile with another number
    const rejected: UserRejectedRequestError = new UserRejectedRequestError()
    const code: 4001 = rejected.code
    expect(code).toBe(4001)
    expect(new SwitchChainError(undefined, ErrorMessages.chainNotSupported).message).toBe('Chain is not supported')
  })

  it('combines disconnect failures into one error naming each chain', () => {
    const error = new DisconnectError([
      { namespace: 'eip155', error: new SigilError('wallet gone', 5000) },
      { namespace: 'solana', error: new UserRejectedRequestError() },
    ])
    expect(error.code).toBe('DISCONNECT_FAILED')
    expect(error.message).toBe(
      'Failed to disconnect: Failed to disconnect chain eip155: wallet gone; Failed to disconnect chain solana: User rejected the request.',
    )
  })

  it('views show any error through errorText', () => {
    expect(errorText({ code: 4001, message: 'MetaMask: denied' })).toBe('User rejected the request.')
    expect(errorText(new Error('boom'))).toBe('boom')
    expect(errorText('plain text')).toBe('plain text')
    expect(errorText(null)).toBe('Unknown error')
  })
})
