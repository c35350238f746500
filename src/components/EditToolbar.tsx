import { DeleteButton, SaveButton, Toolbar } from 'react-admin';
import { DeletePermission } from '../auth/permission';

/** Save, and delete (asked first; admins only, as the API enforces). */
export function EditToolbar({ deletable = true }: { deletable?: boolean }) {
  return (
    <Toolbar sx={{ justifyContent: 'space-between' }}>
      <SaveButton />
      {deletable && (
        <DeletePermission>
          <DeleteButton mutationMode="pessimistic" />
        </DeletePermission>
      )}
    </Toolbar>
  );
}
