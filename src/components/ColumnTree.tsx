import AddIcon from '@mui/icons-material/Add';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import VisibilityOffIcon from '@mui/icons-material/VisibilityOff';
import {
  Alert,
  Box,
  Button,
  Card,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  IconButton,
  LinearProgress,
  MenuItem,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import {
  AutocompleteInput,
  BooleanInput,
  Create,
  CreateButton,
  Edit,
  maxLength,
  maxValue,
  minValue,
  NumberInput,
  ReferenceInput,
  required,
  SimpleForm,
  TextInput,
  Title,
  TopToolbar,
  useDataProvider,
  useNotify,
  useTranslate,
} from 'react-admin';
import { Link } from 'react-router-dom';
import type { ResourceDataProvider } from '../api/dataProvider';
import { Permission } from '../auth/permission';
import { ConflictAlert, useConflict } from './ConflictAlert';
import { EditToolbar } from './EditToolbar';

export interface Column {
  id: number;
  parentId: number | null;
  name: string;
  sort: number;
  visible: boolean;
  itemCount: number;
}
export interface ColumnNode extends Column {
  depth: number;
  children: ColumnNode[];
}

/** Builds the tree (children by sort, then name); orphans whose parent is missing become roots. */
export function columnTree(columns: Column[]): ColumnNode[] {
  const nodes = new Map<number, ColumnNode>(columns.map((c) => [c.id, { ...c, depth: 0, children: [] }]));
  const roots: ColumnNode[] = [];
  for (const n of nodes.values()) {
    const parent = n.parentId == null ? undefined : nodes.get(n.parentId);
    (parent ? parent.children : roots).push(n);
  }
  const order = (list: ColumnNode[], depth: number) => {
    list.sort((a, b) => a.sort - b.sort || a.name.localeCompare(b.name));
    for (const n of list) {
      n.depth = depth;
      order(n.children, depth + 1);
    }
  };
  order(roots, 0);
  return roots;
}

/**
 * The screens of a column tree (movies' and novels' column management): the tree with item counts; add, edit, delete
 * (moving items out first) for admins. `resource` is the list screen's resource (its messages are
 * `resources.<resource>.*`); `title` the i18n key of the page title. Made once per section, at module load.
 */
export function columnTreeScreens({ resource, title }: { resource: string; title: string }) {
  const R = `resources.${resource}`;
  const RESOURCE = resource;

  /** Every column, a page of 100 at a time (the API's largest page). */
  function useAllColumns() {
    const dataProvider = useDataProvider<ResourceDataProvider>();
    return useQuery({
      queryKey: [RESOURCE, 'all'],
      queryFn: async () => {
        const all: Column[] = [];
        for (let page = 1; ; page++) {
          const { data, total = 0 } = await dataProvider.getList<Column & { id: number }>(RESOURCE, {
            pagination: { page, perPage: 100 },
            sort: { field: 'id', order: 'ASC' },
            filter: {},
          });
          all.push(...data);
          if (!data.length || all.length >= total) return all;
        }
      },
    });
  }

  function DeleteColumnDialog({
    node,
    all,
    onClose,
  }: {
    node: ColumnNode;
    all: Column[];
    onClose: () => void;
  }) {
    const translate = useTranslate();
    const dataProvider = useDataProvider<ResourceDataProvider>();
    const notify = useNotify();
    const queryClient = useQueryClient();
    const titleId = useId();
    const [to, setTo] = useState<number | ''>('');
    const [busy, setBusy] = useState(false);
    const others = all.filter((c) => c.id !== node.id);
    const run = async () => {
      setBusy(true);
      try {
        if (node.itemCount > 0 && to !== '') {
          const { changed } = await dataProvider.action<{ changed: number }>(
            RESOURCE,
            node.id,
            'move-items',
            {
              to,
            },
          );
          notify(`${R}.notifications.moved`, { type: 'info', messageArgs: { count: changed } });
        }
        await dataProvider.delete(RESOURCE, { id: node.id, previousData: node });
        notify(`${R}.notifications.deleted`, { type: 'success' });
        onClose();
      } catch {
        // shown by the HTTP client (e.g. the column got items meanwhile: 40900 with the count)
      } finally {
        setBusy(false);
        queryClient.invalidateQueries({ queryKey: [RESOURCE] });
      }
    };
    const blocked = node.children.length > 0;
    return (
      <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="xs">
        <DialogTitle id={titleId}>{translate('ra.action.delete')}</DialogTitle>
        <DialogContent>
          {blocked ? (
            <Alert severity="warning">{translate(`${R}.confirm.hasChildren`, { name: node.name })}</Alert>
          ) : node.itemCount > 0 ? (
            <>
              <DialogContentText>
                {translate(`${R}.confirm.hasItems`, { name: node.name, count: node.itemCount })}
              </DialogContentText>
              <TextField
                select
                fullWidth
                margin="normal"
                label={translate(`${R}.action.moveTo`)}
                value={to}
                onChange={(e) => setTo(Number(e.target.value))}
              >
                {others.map((c) => (
                  <MenuItem key={c.id} value={c.id}>
                    {c.name}
                  </MenuItem>
                ))}
              </TextField>
            </>
          ) : (
            <DialogContentText>{translate(`${R}.confirm.delete`, { name: node.name })}</DialogContentText>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{translate('ra.action.cancel')}</Button>
          {!blocked && (
            <Button
              variant="contained"
              color="error"
              disabled={busy || (node.itemCount > 0 && to === '')}
              onClick={run}
            >
              {translate(node.itemCount > 0 ? `${R}.action.moveAndDelete` : 'ra.action.confirm')}
            </Button>
          )}
        </DialogActions>
      </Dialog>
    );
  }

  function Rows({
    nodes,
    open,
    toggle,
    onDelete,
  }: {
    nodes: ColumnNode[];
    open: Set<number>;
    toggle: (id: number) => void;
    onDelete: (n: ColumnNode) => void;
  }) {
    const translate = useTranslate();
    return (
      <>
        {nodes.map((n) => (
          <RowsOf key={n.id} n={n} open={open} toggle={toggle} onDelete={onDelete} translate={translate} />
        ))}
      </>
    );
  }

  function RowsOf({
    n,
    open,
    toggle,
    onDelete,
    translate,
  }: {
    n: ColumnNode;
    open: Set<number>;
    toggle: (id: number) => void;
    onDelete: (n: ColumnNode) => void;
    translate: (key: string, options?: Record<string, unknown>) => string;
  }) {
    const expanded = open.has(n.id);
    return (
      <>
        <TableRow hover>
          <TableCell>{n.id}</TableCell>
          <TableCell>
            <Box sx={{ display: 'flex', alignItems: 'center', pl: n.depth * 3 }}>
              {n.children.length > 0 ? (
                <IconButton
                  size="small"
                  aria-expanded={expanded}
                  aria-label={translate(`${R}.action.${expanded ? 'collapse' : 'expand'}`, { name: n.name })}
                  onClick={() => toggle(n.id)}
                >
                  {expanded ? <ExpandMoreIcon fontSize="small" /> : <ChevronRightIcon fontSize="small" />}
                </IconButton>
              ) : (
                <Box sx={{ width: 34 }} />
              )}
              <Typography variant="body2">{n.name}</Typography>
              {!n.visible && (
                <VisibilityOffIcon fontSize="small" sx={{ ml: 1, color: 'text.secondary' }} aria-hidden />
              )}
            </Box>
          </TableCell>
          <TableCell align="right">{n.itemCount}</TableCell>
          <TableCell align="right">{n.sort}</TableCell>
          <TableCell>
            <Chip
              size="small"
              variant={n.visible ? 'filled' : 'outlined'}
              color={n.visible ? 'success' : 'default'}
              label={translate(n.visible ? 'ra.boolean.true' : 'ra.boolean.false')}
            />
          </TableCell>
          <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
            <Permission roles={['admin']}>
              <Button
                size="small"
                startIcon={<AddIcon />}
                component={Link}
                to={`/${RESOURCE}/create`}
                state={{ record: { parentId: n.id } }}
              >
                {translate(`${R}.action.addChild`)}
              </Button>
              <Button size="small" startIcon={<EditIcon />} component={Link} to={`/${RESOURCE}/edit/${n.id}`}>
                {translate('ra.action.edit')}
              </Button>
              <Button size="small" color="error" startIcon={<DeleteIcon />} onClick={() => onDelete(n)}>
                {translate('ra.action.delete')}
              </Button>
            </Permission>
          </TableCell>
        </TableRow>
        {expanded && <Rows nodes={n.children} open={open} toggle={toggle} onDelete={onDelete} />}
      </>
    );
  }

  /** Column management: the tree with item counts; add, edit, delete (moving items out first) for admins. */
  function CategoryList() {
    const translate = useTranslate();
    const { data = [], isPending } = useAllColumns();
    const tree = useMemo(() => columnTree(data), [data]);
    const [open, setOpen] = useState<Set<number>>(() => new Set());
    const [deleting, setDeleting] = useState<ColumnNode | null>(null);
    const toggle = (id: number) =>
      setOpen((s) => {
        const next = new Set(s);
        if (!next.delete(id)) next.add(id);
        return next;
      });
    const f = (key: string) => translate(`${R}.fields.${key}`);
    return (
      <Box>
        <Title title={translate(title)} />
        <TopToolbar>
          <Permission roles={['admin']}>
            <CreateButton resource={RESOURCE} />
          </Permission>
        </TopToolbar>
        <Card>
          {isPending && <LinearProgress aria-label={translate('ra.page.loading')} />}
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>{f('id')}</TableCell>
                <TableCell>{f('name')}</TableCell>
                <TableCell align="right">{f('itemCount')}</TableCell>
                <TableCell align="right">{f('sort')}</TableCell>
                <TableCell>{f('visible')}</TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              <Rows nodes={tree} open={open} toggle={toggle} onDelete={setDeleting} />
              {!isPending && !tree.length && (
                <TableRow>
                  <TableCell colSpan={6} align="center" sx={{ py: 6, color: 'text.secondary' }}>
                    {translate(`${R}.empty`)}
                  </TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        </Card>
        {deleting && <DeleteColumnDialog node={deleting} all={data} onClose={() => setDeleting(null)} />}
      </Box>
    );
  }

  function ColumnInputs() {
    return (
      <>
        <TextInput source="name" validate={[required(), maxLength(64)]} />
        <ReferenceInput
          source="parentId"
          reference={RESOURCE}
          perPage={50}
          sort={{ field: 'sort', order: 'ASC' }}
        >
          <AutocompleteInput optionText="name" filterToQuery={(q: string) => (q ? { q } : {})} />
        </ReferenceInput>
        <NumberInput source="sort" validate={[minValue(-1_000_000), maxValue(1_000_000)]} step={1} />
        <BooleanInput source="visible" />
      </>
    );
  }

  function CategoryCreate() {
    const translate = useTranslate();
    return (
      <Create title={translate(`${R}.page.create`)} redirect="list">
        <SimpleForm defaultValues={{ sort: 0, visible: true, parentId: null }}>
          <ColumnInputs />
        </SimpleForm>
      </Create>
    );
  }

  function CategoryEdit() {
    const translate = useTranslate();
    const { conflict, setConflict, onError } = useConflict();
    return (
      <Edit
        title={translate(`${R}.page.editTitle`)}
        mutationMode="pessimistic"
        redirect="list"
        mutationOptions={{ onError }}
        actions={false}
      >
        <ConflictAlert show={conflict} onReload={() => setConflict(false)} />
        <SimpleForm toolbar={<EditToolbar deletable={false} />}>
          <ColumnInputs />
        </SimpleForm>
      </Edit>
    );
  }

  return { CategoryList, CategoryCreate, CategoryEdit };
}
