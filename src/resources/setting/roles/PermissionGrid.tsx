import {
  Checkbox,
  FormHelperText,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
} from '@mui/material';
import { useInput, useTranslate } from 'react-admin';
import { ACTIONS } from '../../../../common/permissions';
import { PERMISSION_SECTIONS } from '../../../auth/catalog';
import { ROLE_MSG } from '../names';

/**
 * A role's permissions as a grid: a row per section, a column per action (read, edit, review, batch, settings), a
 * checkbox where the section declares the action (common/permissions/<section>.ts), and one to take the whole row.
 * The value is the list of `<section>.<action>` in the declarations' order.
 */
export function PermissionGrid({
  source = 'permissions',
  disabled = false,
}: {
  source?: string;
  disabled?: boolean;
}) {
  const translate = useTranslate();
  const { field, fieldState } = useInput({ source, defaultValue: [] });
  const value = new Set<string>(Array.isArray(field.value) ? field.value : []);
  const ordered = (next: Set<string>) =>
    PERMISSION_SECTIONS.flatMap((s) => s.actions.map((a) => `${s.section}.${a}`)).filter((p) => next.has(p));
  const toggle = (permissions: string[], on: boolean) => {
    const next = new Set(value);
    for (const p of permissions)
      if (on) next.add(p);
      else next.delete(p);
    field.onChange(ordered(next));
  };
  const sectionName = (section: string) => translate(`${ROLE_MSG}.sections.${section}`, { _: section });
  return (
    <TableContainer sx={{ maxWidth: 760, mb: 2 }}>
      <Table size="small" aria-label={translate(`${ROLE_MSG}.grid.caption`)}>
        <TableHead>
          <TableRow>
            <TableCell component="th" scope="col">
              {translate(`${ROLE_MSG}.grid.section`)}
            </TableCell>
            {ACTIONS.map((a) => (
              <TableCell key={a} component="th" scope="col" align="center">
                {translate(`${ROLE_MSG}.actions.${a}`)}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {PERMISSION_SECTIONS.map((s) => {
            const row = s.actions.map((a) => `${s.section}.${a}`);
            const held = row.filter((p) => value.has(p)).length;
            const name = sectionName(s.section);
            return (
              <TableRow key={s.section} data-section={s.section}>
                <TableCell component="th" scope="row">
                  <Checkbox
                    size="small"
                    checked={held === row.length}
                    indeterminate={held > 0 && held < row.length}
                    disabled={disabled}
                    onChange={(e) => toggle(row, e.target.checked)}
                    slotProps={{
                      input: { 'aria-label': translate(`${ROLE_MSG}.grid.all`, { section: name }) },
                    }}
                  />
                  {name}
                </TableCell>
                {ACTIONS.map((a) => {
                  const permission = `${s.section}.${a}`;
                  return (
                    <TableCell key={a} align="center">
                      {(s.actions as readonly string[]).includes(a) ? (
                        <Checkbox
                          size="small"
                          checked={value.has(permission)}
                          disabled={disabled}
                          onChange={(e) => toggle([permission], e.target.checked)}
                          slotProps={{
                            input: {
                              'aria-label': `${name} · ${translate(`${ROLE_MSG}.actions.${a}`)}`,
                              // @ts-expect-error data attributes pass through to the input
                              'data-permission': permission,
                            },
                          }}
                        />
                      ) : null}
                    </TableCell>
                  );
                })}
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
      {fieldState.error?.message && (
        <FormHelperText error>
          {translate(fieldState.error.message, { _: fieldState.error.message })}
        </FormHelperText>
      )}
    </TableContainer>
  );
}
