import { Box, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';
import { AUDIT_MSG } from '../names';
import { type AuditRecord, fieldChanges, valueText } from './changes';
import { useFieldName } from './fieldNames';

const mono = {
  fontFamily: 'monospace',
  fontSize: 12,
  wordBreak: 'break-word',
  whiteSpace: 'pre-wrap',
} as const;

/**
 * One entry opened under its row: where it came from, and what changed (fields before and after, each named in the
 * operator's language with its key on hover; a batch; a body).
 */
export function AuditDetail() {
  const record = useRecordContext<AuditRecord>();
  const translate = useTranslate();
  const fieldName = useFieldName();
  if (!record) return null;
  const t = (key: string, args?: Record<string, unknown>) => translate(`${AUDIT_MSG}.detail.${key}`, args);
  const fields = fieldChanges(record.changes);
  // A field that had no value (null) reads "(empty)", not the word null.
  const shown = (v: unknown) => (v === null ? t('empty') : valueText(v));
  const { ids, count, changed, body, ...rest } = record.changes as Record<string, unknown>;
  const batchExtra = Object.fromEntries(
    Object.entries(rest).filter(([k]) => k !== 'before' && k !== 'after'),
  );
  return (
    <Box sx={{ py: 1 }} data-testid="audit-detail">
      <Stack direction="row" spacing={3} useFlexGap sx={{ mb: 1, flexWrap: 'wrap' }}>
        <Typography variant="body2">
          {t('route')}:{' '}
          <Box component="span" sx={mono}>
            {record.route}
          </Box>
        </Typography>
        <Typography variant="body2">
          {t('requestId')}:{' '}
          <Box component="span" sx={mono}>
            {record.requestId || '—'}
          </Box>
        </Typography>
      </Stack>
      {fields.length > 0 && (
        <Table size="small" aria-label={t('changesTable')}>
          <TableHead>
            <TableRow>
              <TableCell>{t('field')}</TableCell>
              <TableCell>{t('before')}</TableCell>
              <TableCell>{t('after')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {fields.map((c) => (
              <TableRow key={c.field}>
                <TableCell sx={{ whiteSpace: 'nowrap', fontWeight: 500 }} title={c.field}>
                  {fieldName(c.field, record)}
                </TableCell>
                <TableCell sx={mono}>{'before' in c ? shown(c.before) : '—'}</TableCell>
                <TableCell sx={mono}>{'after' in c ? shown(c.after) : '—'}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {Array.isArray(ids) && (
        <Stack spacing={0.5}>
          <Typography variant="body2">
            {t('batch', {
              count: String(count ?? ids.length),
              changed: changed === null ? '—' : String(changed),
            })}
          </Typography>
          <Typography variant="body2" sx={mono}>
            {t('ids')}: {ids.join(', ')}
          </Typography>
          {Object.keys(batchExtra).length > 0 && (
            <Typography variant="body2" sx={mono}>
              {JSON.stringify(batchExtra)}
            </Typography>
          )}
        </Stack>
      )}
      {body !== undefined && (
        <Stack spacing={0.5}>
          <Typography variant="body2">{t('body')}</Typography>
          <Box component="pre" sx={{ ...mono, m: 0 }}>
            {body === null ? '—' : JSON.stringify(body, null, 2)}
          </Box>
        </Stack>
      )}
      {!fields.length && !Array.isArray(ids) && body === undefined && (
        <Typography variant="body2" color="text.secondary">
          {t('nothing')}
        </Typography>
      )}
    </Box>
  );
}
