/** What identifies the caller on every Sigil server call (query parameters projectId, st, sv). */
export interface ServerIdentity {
  projectId: string
  sdkType: string
  sdkVersion: string
}

/** `${baseUrl}${path}` with projectId, st and sv, then `params` (undefined and empty values left out). */
export function serverUrl(baseUrl: string, path: string, identity: ServerIdentity, params: Record<string, string | number | undefined> = {}): string {
  const query = new URLSearchParams({ projectId: identity.projectId, st: identity.sdkType, sv: identity.sdkVersion })
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') query.set(key, String(value))
  }
  return `${baseUrl.replace(/\/+$/, '')}${path}?${query.toString()}`
}

/**
 * Reading a Sigil server response: the JSON body, or the server's error
 * (`{"error": {"code", "message"}}`) as a message and code to throw with.
 */
export interface ServerFailure {
  status: number
  message: string
  code: string | undefined
}

/** The parsed body when the response is OK; otherwise a ServerFailure describing it. */
export async function readServerResponse(response: Response): Promise<{ ok: true; body: unknown } | { ok: false; failure: ServerFailure }> {
  const text = await response.text()
  let body: unknown
  try {
    body = text ? JSON.parse(text) : undefined
  } catch {
    body = undefined
  }
  if (response.ok) return { ok: true, body }
  const error = (body as { error?: { code?: unknown; message?: unknown } } | undefined)?.error
  return {
    ok: false,
    failure: {
      status: response.status,
      message: typeof error?.message === 'string' ? error.message : `Request failed with status ${response.status}`,
      code: typeof error?.code === 'string' ? error.code : undefined,
    },
  }
}
