import { Alert } from '@mui/material';
import { createContext, type ReactNode, useContext } from 'react';
import { useTranslate } from 'react-admin';
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

/** Whether the operator is an admin (the API enforces admin-only writes; screens show read-only otherwise). */
export function useIsAdmin(): boolean {
  return useUser()?.role === 'admin';
}

/**
 * For a non-admin on a screen whose changes are admin-only: says the page is read-only (the banner base settings
 * uses), so rows that do not open and missing buttons are explained, never a dead end.
 */
export function ReadOnlyBanner({ message = 'shell.list.readOnly' }: { message?: string }) {
  const translate = useTranslate();
  if (useIsAdmin()) return null;
  return (
    <Alert severity="info" sx={{ mt: 1 }} data-testid="read-only">
      {translate(message)}
    </Alert>
  );
}

/**
 * The roles that may change what the current screen shows (the route's `editRoles`, matching the API's admin-only
 * writes); absent when every role that may open the screen may also save it.
 */
export const EditRolesContext = createContext<readonly string[] | undefined>(undefined);

/** Whether the operator may only read the current screen: its route lets them in but not save. */
export function useReadOnly(): boolean {
  const roles = useContext(EditRolesContext);
  const role = useUser()?.role;
  return !!roles && roles.length > 0 && !roles.includes('*') && !(role && roles.includes(role));
}

/** Why a control is disabled on a read-only screen (its tooltip), in the interface's language. */
export const READ_ONLY_REASON = 'shell.list.readOnlyAction';
