import { BulkConfirmButton } from '../../../components/BulkConfirmButton';
import { OPERATOR_MSG } from '../names';

const done = `${OPERATOR_MSG}.notifications.batchDone`;

/** Batch enable, disable or delete: confirmed first, done in one transaction on the server (all or nothing). */
export const OperatorBulkActions = () => (
  <>
    <BulkConfirmButton
      action="enable"
      label={`${OPERATOR_MSG}.action.enable`}
      confirm={`${OPERATOR_MSG}.action.confirmEnable`}
      done={done}
    />
    <BulkConfirmButton
      action="disable"
      label={`${OPERATOR_MSG}.action.disable`}
      confirm={`${OPERATOR_MSG}.action.confirmDisable`}
      done={done}
      color="error"
    />
    <BulkConfirmButton
      action="delete"
      label="ra.action.delete"
      confirm={`${OPERATOR_MSG}.action.confirmDelete`}
      done={done}
      color="error"
    />
  </>
);
