import { type ComponentType, useEffect } from 'react';
import { loadUser, useUser } from '../api/session';
import { ProgressBar } from '../layout/ProgressBar';
import { NotFound } from '../pages/ExceptionPage';
import { canAccess } from './guard';
import type { Roles } from './types';

/**
 * A screen the role may open, or the not-found page (SPEC.md §4: when the role changes and the current route is
 * not permitted, go to not-found). The server enforces the same rule; this only keeps the UI honest.
 */
export function Guarded({ roles, component: Screen }: { roles: Roles; component: ComponentType }) {
  const user = useUser();
  useEffect(() => {
    if (!user) loadUser().catch(() => {});
  }, [user]);
  if (!user) return <ProgressBar />;
  return canAccess(roles, user.role) ? <Screen /> : <NotFound />;
}

export const guard = (roles: Roles, component: ComponentType) => () => (
  <Guarded roles={roles} component={component} />
);
