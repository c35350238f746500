import { type ComponentType, useEffect } from 'react';
import { loadUser, useUser } from '../api/session';
import { EditPermissionContext } from '../auth/permission';
import { ProgressBar } from '../layout/ProgressBar';
import { Forbidden } from '../pages/ExceptionPage';
import { canAccess } from './guard';
import { LeavingScreen } from './LeavingScreen';
import type { Need } from './types';

/**
 * A screen the operator's permissions open, or SPEC.md §2's 403 page (a page that exists but is refused to this role
 * says so, rather than pretending it is gone; the title follows, `usePageTitle`). The server enforces the same
 * rule; this only keeps the UI honest.
 */
export function Guarded({
  need,
  editNeed,
  component: Screen,
}: {
  need?: Need;
  editNeed?: Need;
  component: ComponentType;
}) {
  const user = useUser();
  useEffect(() => {
    if (!user) loadUser().catch(() => {});
  }, [user]);
  if (!user) return <ProgressBar />;
  return canAccess(need, user.permissions) ? (
    <EditPermissionContext.Provider value={{ need, edit: editNeed }}>
      <LeavingScreen>
        <Screen />
      </LeavingScreen>
    </EditPermissionContext.Provider>
  ) : (
    <Forbidden />
  );
}

export const guard = (need: Need | undefined, component: ComponentType, editNeed?: Need) => () => (
  <Guarded need={need} editNeed={editNeed} component={component} />
);
