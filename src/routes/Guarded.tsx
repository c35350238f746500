import { type ComponentType, useEffect } from 'react';
import { loadUser, useUser } from '../api/session';
import { EditRolesContext } from '../auth/permission';
import { ProgressBar } from '../layout/ProgressBar';
import { Forbidden } from '../pages/ExceptionPage';
import { canAccess } from './guard';
import { LeavingScreen } from './LeavingScreen';
import type { Roles } from './types';

/**
 * A screen the role may open, or SPEC.md §2's 403 page (issue #17: a page that exists but is refused to this role
 * says so, rather than pretending it is gone; the title follows, `usePageTitle`). The server enforces the same
 * rule; this only keeps the UI honest.
 */
export function Guarded({
  roles,
  editRoles,
  component: Screen,
}: {
  roles: Roles;
  editRoles?: Roles;
  component: ComponentType;
}) {
  const user = useUser();
  useEffect(() => {
    if (!user) loadUser().catch(() => {});
  }, [user]);
  if (!user) return <ProgressBar />;
  return canAccess(roles, user.role) ? (
    <EditRolesContext.Provider value={editRoles}>
      <LeavingScreen>
        <Screen />
      </LeavingScreen>
    </EditRolesContext.Provider>
  ) : (
    <Forbidden />
  );
}

export const guard = (roles: Roles, component: ComponentType, editRoles?: Roles) => () => (
  <Guarded roles={roles} editRoles={editRoles} component={component} />
);
