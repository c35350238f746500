import { DeleteButton, SaveButton, Toolbar } from 'react-admin';
import { Permission } from '../auth/permission';

/** Save, and delete (asked first; admins only, as the API enforces). */
export function EditToolbar({ deletable = true }: { deletable?: boolean }) {
  return (
    <Toolbar sx={{ justifyContent: 'space-between' }}>
      <SaveButton />
      {deletable && (
        <Permission roles={['admin']}>
          <DeleteButton mutationMode="pessimistic" />
        </Permission>
      )}
    </Toolbar>
  );
}
