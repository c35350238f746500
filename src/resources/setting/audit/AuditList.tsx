import HistoryIcon from '@mui/icons-material/History';
import { Box, Chip } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import {
  FunctionField,
  List,
  type RaRecord,
  SelectInput,
  TextField,
  TextInput,
  TopToolbar,
  useGetList,
  useTranslate,
} from 'react-admin';
import { request } from '../../../api/http';
import { DayInput } from '../../../components/dates';
import { type CsvColumn, ExportCsvButton } from '../../../components/ExportCsvButton';
import { ListEmpty } from '../../../components/ListEmpty';
import { Datagrid, DensityButton, ListPagination, LocaleDateField } from '../../../layout/listParts';
import { AUDIT_API, AUDIT_MSG, OPERATOR_RESOURCE } from '../names';
import { AuditDetail } from './AuditDetail';
import { type AuditRecord, summaryOf } from './changes';
import { useFieldName } from './fieldNames';
import { RetentionButton } from './RetentionButton';

const f = `${AUDIT_MSG}.filters`;
const field = (name: string) => `${AUDIT_MSG}.fields.${name}`;

/** A section's name in the operator's language (the server module's name when none is written). */
export const useSectionName = () => {
  const translate = useTranslate();
  return (section: string) => translate(`${AUDIT_MSG}.sections.${section}`, { _: section });
};

/** A resource's name in the operator's language (as the API names it when none is written). */
export const useResourceName = () => {
  const translate = useTranslate();
  return (resource: string) => translate(`${AUDIT_MSG}.resources.${resource}`, { _: resource });
};

/** An action's name in the operator's language: `batch:delete` is "Batch: delete", a custom one as it is. */
export const useActionName = () => {
  const translate = useTranslate();
  return (action: string) => {
    const [head, tail] = action.split(':');
    const name = translate(`${AUDIT_MSG}.actions.${head}`, { _: head });
    return tail ? `${name}: ${translate(`${AUDIT_MSG}.actions.${tail}`, { _: tail })}` : name;
  };
};

/** The list's filters: operator and section (choices read from the API), record, period. */
function useAuditFilters() {
  const sectionName = useSectionName();
  const operators = useGetList(OPERATOR_RESOURCE, {
    pagination: { page: 1, perPage: 100 },
    sort: { field: 'account', order: 'ASC' },
  });
  const sections = useQuery({
    queryKey: [AUDIT_API, 'sections'],
    queryFn: () => request<string[]>(`${AUDIT_API}/sections`),
    staleTime: Number.POSITIVE_INFINITY,
  });
  return [
    <SelectInput
      key="operatorId"
      source="operatorId"
      alwaysOn
      label={`${f}.operator`}
      choices={(operators.data ?? []).map((o) => ({ id: o.id, name: o.account }))}
      isPending={operators.isPending}
    />,
    <SelectInput
      key="section"
      source="section"
      alwaysOn
      label={`${f}.section`}
      choices={(sections.data ?? []).map((s) => ({ id: s, name: sectionName(s) }))}
      isPending={sections.isPending}
    />,
    <TextInput key="recordId" source="recordId" alwaysOn label={`${f}.record`} />,
    <DayInput key="from" source="from" alwaysOn label={`${f}.from`} />,
    <DayInput key="to" source="to" alwaysOn label={`${f}.to`} />,
  ];
}

function csvColumns(
  sectionName: (s: string) => string,
  resourceName: (r: string) => string,
  actionName: (a: string) => string,
): CsvColumn[] {
  return [
    { label: field('id'), value: (r) => r.id },
    { label: field('at'), value: (r) => r.at },
    { label: field('operatorAccount'), value: (r) => r.operatorAccount },
    { label: field('address'), value: (r) => r.address },
    { label: field('section'), value: (r) => sectionName(r.section) },
    { label: field('resource'), value: (r) => resourceName(r.resource) },
    { label: field('action'), value: (r) => actionName(r.action) },
    { label: field('recordId'), value: (r) => r.recordId ?? '' },
    { label: field('route'), value: (r) => r.route },
    { label: field('changes'), value: (r) => JSON.stringify(r.changes) },
    { label: field('requestId'), value: (r) => r.requestId },
  ];
}

function Actions() {
  const sectionName = useSectionName();
  const resourceName = useResourceName();
  const actionName = useActionName();
  return (
    <TopToolbar>
      <RetentionButton />
      <DensityButton />
      <ExportCsvButton columns={csvColumns(sectionName, resourceName, actionName)} filename="audit-log" />
    </TopToolbar>
  );
}

/**
 * The changes in one line, cut to the column's width (a create names every field): the whole line on hover. Fields
 * are named as the operator's screens name them.
 */
function Summary({ record }: { record: RaRecord }) {
  const translate = useTranslate();
  const fieldName = useFieldName();
  const entry = record as AuditRecord;
  const s = summaryOf(entry.changes);
  if (s.kind === 'none') return null;
  const text =
    s.kind === 'batch'
      ? translate(`${AUDIT_MSG}.summary.batch`, { smart_count: Number(s.text) })
      : translate(`${AUDIT_MSG}.summary.${s.kind}`, {
          fields: s.names.map((f) => fieldName(f, entry)).join(', '),
        });
  return (
    <Box
      component="span"
      title={text}
      sx={{
        display: 'block',
        maxWidth: 300,
        overflow: 'hidden',
        textOverflow: 'ellipsis',
        whiteSpace: 'nowrap',
      }}
    >
      {text}
    </Box>
  );
}

/**
 * The audit log (admins only): who changed what, when and from where, newest first, filtered by
 * operator, section, record and period; a row opens its before and after; the filtered list exports as CSV.
 */
export function AuditList() {
  const sectionName = useSectionName();
  const resourceName = useResourceName();
  const actionName = useActionName();
  const filters = useAuditFilters();
  return (
    <List
      filters={filters}
      actions={<Actions />}
      sort={{ field: 'at', order: 'DESC' }}
      perPage={20}
      pagination={<ListPagination />}
      empty={false}
    >
      <Datagrid
        bulkActionButtons={false}
        expand={<AuditDetail />}
        rowClick="expand"
        empty={<ListEmpty icon={HistoryIcon} messages={AUDIT_MSG} />}
      >
        <LocaleDateField source="at" label={field('at')} />
        <TextField source="operatorAccount" label={field('operatorAccount')} sortable={false} />
        <TextField source="address" label={field('address')} sortable={false} />
        <FunctionField
          source="section"
          label={field('section')}
          sortable={false}
          render={(r) => sectionName(r.section)}
        />
        <FunctionField
          source="action"
          label={field('action')}
          sortable={false}
          render={(r) => (
            <Chip
              size="small"
              variant="outlined"
              color={r.action === 'delete' || r.action === 'batch:delete' ? 'warning' : 'default'}
              label={actionName(r.action)}
            />
          )}
        />
        <FunctionField
          source="resource"
          label={field('resource')}
          sortable={false}
          render={(r) => resourceName(r.resource)}
        />
        <TextField source="recordId" label={field('recordId')} sortable={false} emptyText="—" />
        <FunctionField
          source="changes"
          label={field('changes')}
          sortable={false}
          render={(r) => <Summary record={r} />}
        />
      </Datagrid>
    </List>
  );
}
