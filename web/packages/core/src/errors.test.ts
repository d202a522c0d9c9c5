import { describe, expect, it } from 'vitest'
import { ErrorMessages, errorCode, isUserRejection, RpcErrorCode, RpcErrorMessages, SigilError, toSigilError, tryAgainAfter } from './errors.js'

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
    expect(ErrorMessages.requestTimeout).toBe('The request took too long to respond.')
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
})
