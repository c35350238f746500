import { Alert } from '@mui/material';
import { createContext, type ReactNode, useContext } from 'react';
import { useTranslate } from 'react-admin';
import type { Action, Permission as PermissionName } from '../../common/permissions';
import { useUser } from '../api/session';
import { PERMISSION_SECTIONS } from './catalog';

/**
 * Issue #52: what an operator may do is the set of permissions (`<section>.<action>`) their role holds, as the
 * sections declare them (common/permissions/<section>.ts). Screens ask for a permission, never for a role's name.
 */
export function hasPermission(need: unknown, permissions: readonly string[] | undefined | null): boolean {
  if (typeof need !== 'string' || !/^[a-z-]+\.[a-z]+$/.test(need))
    throw new Error('need a permission! Like <Permission need="movie.edit">');
  return !!permissions && permissions.includes(need);
}

/** Whether the operator (as the UI views them) holds `need`. */
export function useCan(need: PermissionName): boolean {
  return hasPermission(need, useUser()?.permissions);
}

/** Keeps its children only for an operator who holds `need`. */
export function Permission({ need, children }: { need: PermissionName; children: ReactNode }) {
  return useCan(need) ? children : null;
}

/**
 * What the current screen's route needs to open (`need`) and to save (`edit`, absent when opening is enough),
 * set by the route guard (routes/Guarded.tsx) from the section's declaration.
 */
export const EditPermissionContext = createContext<{ need?: PermissionName; edit?: PermissionName }>({});

/** Whether the operator may only read the current screen: its route lets them in but not save. */
export function useReadOnly(): boolean {
  const { edit } = useContext(EditPermissionContext);
  const permissions = useUser()?.permissions;
  return !!edit && !hasPermission(edit, permissions);
}

/**
 * Whether the operator holds the current section's `action` (`useSectionCan('settings')` on a movie screen asks
 * `movie.settings`): for the shared pieces (toolbars, bulk buttons) that serve every section. The section is the
 * one of the permission the route needs; outside a guarded route, nothing is allowed.
 */
export function useSectionCan(action: Action): boolean {
  const { need, edit } = useContext(EditPermissionContext);
  const permissions = useUser()?.permissions;
  const section = (need ?? edit)?.split('.')[0];
  return !!section && hasPermission(`${section}.${action}`, permissions);
}

/** Keeps its children only for an operator who holds the current section's `action` (see useSectionCan). */
export function SectionPermission({ action, children }: { action: Action; children: ReactNode }) {
  return useSectionCan(action) ? children : null;
}

/**
 * Whether the operator may delete in the current section: the API's deletes need the section's `settings` where
 * the section declares one (movies, actresses, domains: deleting is beyond editing), else its `edit` (notices).
 */
export function useSectionCanDelete(): boolean {
  const { need, edit } = useContext(EditPermissionContext);
  const permissions = useUser()?.permissions;
  const section = (need ?? edit)?.split('.')[0];
  const declared = PERMISSION_SECTIONS.find((s) => s.section === section);
  if (!declared) return false;
  const action = declared.actions.includes('settings') ? 'settings' : 'edit';
  return hasPermission(`${section}.${action}`, permissions);
}

/** Keeps its children (a delete button) only for an operator who may delete in the current section. */
export function DeletePermission({ children }: { children: ReactNode }) {
  return useSectionCanDelete() ? children : null;
}

/**
 * For an operator who may not save what the screen shows (`need`, or the route's edit permission): says the page
 * is read-only (the banner base settings uses), so rows that do not open and missing buttons are explained, never
 * a dead end.
 */
export function ReadOnlyBanner({
  message = 'shell.list.readOnly',
  need,
}: {
  message?: string;
  need?: PermissionName;
}) {
  const translate = useTranslate();
  const { edit } = useContext(EditPermissionContext);
  const permissions = useUser()?.permissions;
  const wanted = need ?? edit;
  if (!wanted || hasPermission(wanted, permissions)) return null;
  return (
    <Alert severity="info" sx={{ mt: 1 }} data-testid="read-only">
      {translate(message)}
    </Alert>
  );
}

/** Why a control is disabled on a read-only screen (its tooltip), in the interface's language. */
export const READ_ONLY_REASON = 'shell.list.readOnlyAction';
