/** The session's browser storage (SPEC.md §3): the token under `token`, the operator id under `uid`. */
export const TOKEN_KEY = 'token';
export const UID_KEY = 'uid';

export function getToken(): string | null {
  return localStorage.getItem(TOKEN_KEY) || null;
}

export function getUid(): string | null {
  return localStorage.getItem(UID_KEY) || null;
}

export function storeSession(token: string, uid: string | number): void {
  localStorage.setItem(TOKEN_KEY, token);
  localStorage.setItem(UID_KEY, String(uid));
}

export function clearToken(): void {
  localStorage.removeItem(TOKEN_KEY);
}

export function clearSession(): void {
  localStorage.removeItem(TOKEN_KEY);
  localStorage.removeItem(UID_KEY);
}
