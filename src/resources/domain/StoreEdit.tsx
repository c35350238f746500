import {
  maxLength,
  maxValue,
  minValue,
  NumberInput,
  required,
  SelectInput,
  TextInput,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { MAX_WEIGHT } from '../../../common/domain';
import { DayInput } from '../../components/dates';
import { EditPage } from '../../components/EditPage';
import { STORE_MSG } from './names';
import { poolChoices, roleChoices, statusChoices, usePools } from './shared';

const f = (name: string) => `${STORE_MSG}.fields.${name}`;

function Title() {
  const record = useRecordContext();
  const translate = useTranslate();
  return <>{record ? `${translate(`${STORE_MSG}.page.edit`)} ${record.unicode}` : ''}</>;
}

/** Edits one domain (`/domain/store/edit/:id`): role, pool, weight, status, registrar, expiry, channel. */
export function StoreEdit() {
  const { pools } = usePools();
  return (
    <EditPage title={<Title />}>
      <TextInput source="unicode" label={f('unicode')} disabled />
      <TextInput source="hostname" label={f('hostname')} disabled />
      <SelectInput source="status" label={f('status')} choices={statusChoices} validate={required()} />
      <SelectInput source="role" label={f('role')} choices={roleChoices} validate={required()} />
      <SelectInput
        source="poolId"
        label={f('poolId')}
        choices={poolChoices(pools)}
        parse={(v) => (v === '' || v === null ? null : Number(v))}
      />
      <NumberInput
        source="weight"
        label={f('weight')}
        min={0}
        max={MAX_WEIGHT}
        validate={[required(), minValue(0), maxValue(MAX_WEIGHT)]}
      />
      <TextInput
        source="channel"
        label={f('channel')}
        validate={maxLength(64)}
        helperText={`${STORE_MSG}.helper.channel`}
        parse={(v) => v || null}
      />
      <TextInput source="registrar" label={f('registrar')} validate={maxLength(64)} parse={(v) => v ?? ''} />
      <DayInput source="expiresOn" label={f('expiresOn')} parse={(v) => v || null} />
      <DayInput source="certExpiresOn" label={f('certExpiresOn')} parse={(v) => v || null} />
      <TextInput
        source="retireReason"
        label={f('retireReason')}
        validate={maxLength(256)}
        parse={(v) => v ?? ''}
        multiline
      />
    </EditPage>
  );
}
