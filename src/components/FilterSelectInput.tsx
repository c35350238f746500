import { MenuItem, TextField } from '@mui/material';
import {
  type ChoicesProps,
  FieldTitle,
  type InputProps,
  useChoices,
  useChoicesContext,
  useInput,
  useTranslate,
} from 'react-admin';

export type FilterSelectInputProps = Omit<InputProps, 'source'> &
  Pick<ChoicesProps, 'choices' | 'optionText' | 'optionValue' | 'translateChoice'> & { source?: string };

/** The value of "every one": no filter on that field. */
const ALL = '';

/**
 * A list filter's drop-down (a status, a type, a position…): its first option is "全部 / All", shown while the
 * filter is unset and said so by screen readers. react-admin's SelectInput starts blank instead, and names its
 * empty option "Clear value". Takes its choices as SelectInput does, or from a ReferenceInput around it.
 */
export function FilterSelectInput({
  choices,
  optionText,
  optionValue,
  translateChoice,
  source: sourceProp,
  label,
  alwaysOn: _alwaysOn,
  ...rest
}: FilterSelectInputProps & { alwaysOn?: boolean }) {
  const translate = useTranslate();
  const { allChoices, source, resource, isFromReference } = useChoicesContext({
    choices,
    source: sourceProp,
  });
  const { getChoiceText, getChoiceValue } = useChoices({
    optionText: optionText ?? 'name',
    optionValue,
    translateChoice: translateChoice ?? !isFromReference,
  });
  const { field, id } = useInput({ ...rest, source: source ?? '', resource });
  return (
    <TextField
      id={id}
      name={field.name}
      inputRef={field.ref}
      value={field.value ?? ALL}
      onChange={(e) => field.onChange(e.target.value)}
      onBlur={field.onBlur}
      select
      className={`ra-input ra-input-${source}`}
      label={
        label === false || label === '' ? undefined : (
          <FieldTitle label={label} source={source} resource={resource} />
        )
      }
      slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
      sx={{ minWidth: 120 }}
    >
      <MenuItem value={ALL}>{translate('shell.list.all')}</MenuItem>
      {(allChoices ?? []).map((c) => {
        const value = getChoiceValue(c);
        return (
          <MenuItem key={String(value)} value={value}>
            {getChoiceText(c)}
          </MenuItem>
        );
      })}
    </TextField>
  );
}
