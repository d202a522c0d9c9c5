/** A JSON-RPC call to a Solana node; plain fetch, so the request is a simple JSON POST any proxy accepts. A node's error keeps its code. */
export async function call<T>(rpcUrl: string, method: string, params: unknown[]): Promise<T> {
  const res = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  const answer = (await res.json().catch(() => undefined)) as { result?: T; error?: { code: number; message: string } } | undefined
  if (answer?.error) throw Object.assign(new Error(answer.error.message), { code: answer.error.code })
  if (!res.ok || !answer) throw new Error(`${method}: HTTP ${res.status}`)
  return answer.result as T
}
