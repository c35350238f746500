import type { ReactNode } from 'react';
import { useUser } from '../api/session';

/**
 * SPEC.md §5–6: an element marked with roles is kept only when the user's role is listed; an empty list means
 * no restriction; anything but an array is a developer error.
 */
export function hasPermission(roles: unknown, role: string | undefined | null): boolean {
  if (!Array.isArray(roles)) throw new Error("need roles! Like <Permission roles={['admin', 'user']}>");
  if (roles.length === 0) return true;
  return role ? roles.includes(role) : false;
}

export function Permission({ roles, children }: { roles: string[]; children: ReactNode }) {
  const user = useUser();
  return hasPermission(roles, user?.role) ? children : null;
}
