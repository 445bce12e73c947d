/** The RFC 9457 problem body the API answers a refusal with, for `toEqual`: the spec's `error` and a stable `code`. */
export function problem(status: number, code: string, message: string, extensions: Record<string, unknown> = {}) {
  return {
    type: `/api/problems/${code}`,
    title: expect.any(String),
    status,
    detail: message,
    code,
    error: message,
    ...extensions,
  };
}
