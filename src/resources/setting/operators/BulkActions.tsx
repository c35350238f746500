import { BulkConfirmButton } from '../../../components/BulkConfirmButton';

const R = 'resources.setting/operators';
const done = `${R}.notifications.batchDone`;

/** Batch enable, disable or delete: confirmed first, done in one transaction on the server (all or nothing). */
export const OperatorBulkActions = () => (
  <>
    <BulkConfirmButton
      action="enable"
      label={`${R}.action.enable`}
      confirm={`${R}.action.confirmEnable`}
      done={done}
    />
    <BulkConfirmButton
      action="disable"
      label={`${R}.action.disable`}
      confirm={`${R}.action.confirmDisable`}
      done={done}
      color="error"
    />
    <BulkConfirmButton
      action="delete"
      label="ra.action.delete"
      confirm={`${R}.action.confirmDelete`}
      done={done}
      color="error"
    />
  </>
);
