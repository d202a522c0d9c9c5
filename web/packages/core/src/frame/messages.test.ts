import { describe, expect, it } from 'vitest'
import { AppRequest, FrameMessage, originAllowed, ResultOf, rpcSafety } from './messages.js'

describe('frame messages', () => {
  it('accepts each request with its payload, and refuses malformed ones', () => {
    expect(AppRequest.safeParse({ id: 'abcdef0123456789', type: 'CONNECT_OTP', payload: { otp: '123456' } }).success).toBe(true)
    expect(AppRequest.safeParse({ id: 'abcdef0123456789', type: 'CONNECT_OTP', payload: { otp: '12345' } }).success).toBe(false)
    expect(AppRequest.safeParse({ id: 'abcdef0123456789', type: 'CONNECT_OTP' }).success).toBe(false)
    expect(AppRequest.safeParse({ id: 'abcdef0123456789', type: 'STEAL_KEYS' }).success).toBe(false)
    expect(AppRequest.safeParse({ id: 'x', type: 'SIGN_OUT' }).success).toBe(false)
    expect(AppRequest.safeParse({ id: 'abcdef0123456789', type: 'GET_USER' }).success).toBe(true)
    expect(AppRequest.safeParse({ id: 'abcdef0123456789', type: 'RPC_REQUEST', payload: { method: 'personal_sign', params: ['0x00'] } }).success).toBe(true)
  })

  it('checks replies and their payloads', () => {
    expect(FrameMessage.safeParse({ type: 'FRAME_READY', payload: { version: '1' } }).success).toBe(true)
    expect(FrameMessage.safeParse({ id: 'abcdef0123456789', type: 'RESPONSE', ok: false, error: { message: 'no', code: 4001 } }).success).toBe(true)
    expect(FrameMessage.safeParse({ id: 'abcdef0123456789', type: 'RESPONSE', ok: false }).success).toBe(false)
    expect(ResultOf.CONNECT_EMAIL.safeParse({ action: 'VERIFY_DEVICE' }).success).toBe(true)
    expect(ResultOf.CONNECT_EMAIL.safeParse({ action: 'OTHER' }).success).toBe(false)
    // Connect device: 'not approved yet' is an answer the host asks again after, approved sends a code.
    expect(ResultOf.CONNECT_DEVICE.safeParse({ action: 'VERIFY_DEVICE' }).success).toBe(true)
    expect(ResultOf.CONNECT_DEVICE.safeParse({ action: 'VERIFY_OTP' }).success).toBe(true)
    expect(ResultOf.CONNECT_DEVICE.safeParse({ action: 'CONNECT' }).success).toBe(false)
    expect(ResultOf.UPDATE_EMAIL_SECONDARY_OTP.safeParse({ newEmail: 'a@b.co' }).success).toBe(true)
  })

  it('sorts RPC methods into safe, unsafe and not allowed (spec section 6)', () => {
    expect(rpcSafety('eth_getBalance')).toBe('safe')
    expect(rpcSafety('eth_call')).toBe('safe')
    expect(rpcSafety('personal_sign')).toBe('unsafe')
    expect(rpcSafety('eth_signTypedData_v4')).toBe('unsafe')
    expect(rpcSafety('eth_sendTransaction')).toBe('unsafe')
    expect(rpcSafety('solana_signMessage')).toBe('unsafe')
    expect(rpcSafety('eth_sign')).toBe('not-allowed')
    expect(rpcSafety('eth_sendRawTransaction')).toBe('not-allowed')
  })

  it('matches origins as the directory does: exact, wildcard subdomains, any', () => {
    expect(originAllowed(['https://a.com'], 'https://a.com')).toBe(true)
    expect(originAllowed(['https://a.com'], 'https://b.com')).toBe(false)
    expect(originAllowed(['https://a.com'], 'http://a.com')).toBe(false)
    expect(originAllowed(['http://127.0.0.1:5173'], 'http://127.0.0.1:5173')).toBe(true)
    expect(originAllowed(['http://127.0.0.1:5173'], 'http://127.0.0.1:5174')).toBe(false)
    expect(originAllowed(['https://*.a.com'], 'https://x.a.com')).toBe(true)
    expect(originAllowed(['https://*.a.com'], 'https://x.y.a.com')).toBe(true)
    expect(originAllowed(['https://*.a.com'], 'https://a.com')).toBe(false)
    expect(originAllowed(['https://*.a.com'], 'https://evila.com')).toBe(false)
    expect(originAllowed(['https://*.a.com:8443'], 'https://x.a.com:8443')).toBe(true)
    expect(originAllowed(['https://*.a.com:8443'], 'https://x.a.com')).toBe(false)
    expect(originAllowed(['*'], 'https://anything.example')).toBe(true)
    expect(originAllowed(['*'], 'null')).toBe(false)
    expect(originAllowed([], 'https://a.com')).toBe(false)
  })
})
