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
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import {
  BooleanInput,
  Create,
  CreateButton,
  maxLength,
  maxValue,
  minValue,
  NumberInput,
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
import { ReadOnlyBanner, SectionPermission } from '../auth/permission';
import { ColumnTreeInput } from './ColumnTreeInput';
import { ConfirmDialog } from './ConfirmDialog';
import { type Column, type ColumnNode, columnTree, useAllColumns } from './columnTreeData';
import { EditPage } from './EditPage';
import { EditToolbar } from './EditToolbar';

export { type Column, type ColumnNode, columnTree } from './columnTreeData';

/** A column tree as a section declares it: `resource` is the list screen's resource (its messages are
 * `resources.<resource>.*`); `title` the i18n key of the page title. */
export interface ColumnTreeDecl {
  resource: string;
  title: string;
}

const msg = (resource: string) => `resources.${resource}`;

function DeleteColumnDialog({
  resource,
  node,
  all,
  onClose,
}: {
  resource: string;
  node: ColumnNode;
  all: Column[];
  onClose: () => void;
}) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ResourceDataProvider>();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [to, setTo] = useState<number | ''>('');
  const [busy, setBusy] = useState(false);
  const others = all.filter((c) => c.id !== node.id);
  const run = async () => {
    setBusy(true);
    try {
      if (node.itemCount > 0 && to !== '') {
        const { changed } = await dataProvider.action<{ changed: number }>(resource, node.id, 'move-items', {
          to,
        });
        notify(`${msg(resource)}.notifications.moved`, { type: 'info', messageArgs: { count: changed } });
      }
      await dataProvider.delete(resource, { id: node.id, previousData: node });
      notify(`${msg(resource)}.notifications.deleted`, { type: 'success' });
      onClose();
    } catch {
      // shown by the HTTP client (e.g. the column got items meanwhile: 40900 with the count)
    } finally {
      setBusy(false);
      queryClient.invalidateQueries({ queryKey: [resource] });
    }
  };
  const blocked = node.children.length > 0;
  return (
    <ConfirmDialog
      open
      title={translate('ra.action.delete')}
      question={
        blocked
          ? undefined
          : node.itemCount > 0
            ? translate(`${msg(resource)}.confirm.hasItems`, { name: node.name, count: node.itemCount })
            : translate(`${msg(resource)}.confirm.delete`, { name: node.name })
      }
      onClose={onClose}
      onConfirm={run}
      confirmLabel={blocked ? null : node.itemCount > 0 ? `${msg(resource)}.action.moveAndDelete` : undefined}
      color="error"
      disabled={busy || (node.itemCount > 0 && to === '')}
      autoFocusConfirm={false}
    >
      {blocked ? (
        <Alert severity="warning">
          {translate(`${msg(resource)}.confirm.hasChildren`, { name: node.name })}
        </Alert>
      ) : (
        node.itemCount > 0 && (
          <TextField
            select
            fullWidth
            margin="normal"
            label={translate(`${msg(resource)}.action.moveTo`)}
            value={to}
            onChange={(e) => setTo(Number(e.target.value))}
          >
            {others.map((c) => (
              <MenuItem key={c.id} value={c.id}>
                {c.name}
              </MenuItem>
            ))}
          </TextField>
        )
      )}
    </ConfirmDialog>
  );
}

function Rows({
  resource,
  nodes,
  open,
  toggle,
  onDelete,
}: {
  resource: string;
  nodes: ColumnNode[];
  open: Set<number>;
  toggle: (id: number) => void;
  onDelete: (n: ColumnNode) => void;
}) {
  const translate = useTranslate();
  return (
    <>
      {nodes.map((n) => (
        <RowsOf
          key={n.id}
          resource={resource}
          n={n}
          open={open}
          toggle={toggle}
          onDelete={onDelete}
          translate={translate}
        />
      ))}
    </>
  );
}

function RowsOf({
  resource,
  n,
  open,
  toggle,
  onDelete,
  translate,
}: {
  resource: string;
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
                aria-label={translate(`${msg(resource)}.action.${expanded ? 'collapse' : 'expand'}`, {
                  name: n.name,
                })}
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
        <TableCell align="right">
          {n.itemCount}
          {n.children.length > 0 && (
            <Typography
              component="div"
              variant="caption"
              color="text.secondary"
              sx={{ whiteSpace: 'nowrap' }}
            >
              {translate('shell.columns.subtree', { count: n.subtreeCount })}
            </Typography>
          )}
        </TableCell>
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
          <SectionPermission action="settings">
            <Button
              size="small"
              startIcon={<AddIcon />}
              component={Link}
              to={`/${resource}/create`}
              state={{ record: { parentId: n.id } }}
            >
              {translate(`${msg(resource)}.action.addChild`)}
            </Button>
            <Button size="small" startIcon={<EditIcon />} component={Link} to={`/${resource}/edit/${n.id}`}>
              {translate('ra.action.edit')}
            </Button>
            <Button size="small" color="error" startIcon={<DeleteIcon />} onClick={() => onDelete(n)}>
              {translate('ra.action.delete')}
            </Button>
          </SectionPermission>
        </TableCell>
      </TableRow>
      {expanded && (
        <Rows resource={resource} nodes={n.children} open={open} toggle={toggle} onDelete={onDelete} />
      )}
    </>
  );
}

/** Column management: the tree with item counts; add, edit, delete (moving items out first) for admins. */
/** The tree with item counts; add, edit, delete (moving items out first) for admins. */
export function ColumnTreeList({ resource, title }: ColumnTreeDecl) {
  const translate = useTranslate();
  const { data = [], isPending } = useAllColumns(resource);
  const tree = useMemo(() => columnTree(data), [data]);
  const [open, setOpen] = useState<Set<number>>(() => new Set());
  const [deleting, setDeleting] = useState<ColumnNode | null>(null);
  const toggle = (id: number) =>
    setOpen((s) => {
      const next = new Set(s);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const f = (key: string) => translate(`${msg(resource)}.fields.${key}`);
  return (
    <Box>
      <Title title={translate(title)} />
      <ReadOnlyBanner />
      <TopToolbar>
        <SectionPermission action="settings">
          <CreateButton resource={resource} />
        </SectionPermission>
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
            <Rows resource={resource} nodes={tree} open={open} toggle={toggle} onDelete={setDeleting} />
            {!isPending && !tree.length && (
              <TableRow>
                <TableCell colSpan={6} align="center" sx={{ py: 6, color: 'text.secondary' }}>
                  {translate(`${msg(resource)}.empty`)}
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </Card>
      {deleting && (
        <DeleteColumnDialog
          resource={resource}
          node={deleting}
          all={data}
          onClose={() => setDeleting(null)}
        />
      )}
    </Box>
  );
}

function ColumnInputs({ resource }: { resource: string }) {
  return (
    <>
      <TextInput source="name" validate={[required(), maxLength(64)]} />
      <ColumnTreeInput columns={resource} source="parentId" />
      <NumberInput source="sort" validate={[minValue(-1_000_000), maxValue(1_000_000)]} step={1} />
      <BooleanInput source="visible" />
    </>
  );
}

export function ColumnCreate({ resource }: { resource: string }) {
  const translate = useTranslate();
  return (
    <Create title={translate(`${msg(resource)}.page.create`)} redirect="list">
      <SimpleForm defaultValues={{ sort: 0, visible: true, parentId: null }}>
        <ColumnInputs resource={resource} />
      </SimpleForm>
    </Create>
  );
}

export function ColumnEdit({ resource }: { resource: string }) {
  const translate = useTranslate();
  return (
    <EditPage
      resource={resource}
      title={translate(`${msg(resource)}.page.editTitle`)}
      toolbar={<EditToolbar deletable={false} />}
    >
      <ColumnInputs resource={resource} />
    </EditPage>
  );
}

/**
 * The screens of a column tree (movies' and novels' column management): the tree with item counts; add, edit, delete
 * (moving items out first) for admins. `resource` is the list screen's resource (its messages are
 * `resources.<resource>.*`); `title` the i18n key of the page title. Made once per section, at module load.
 */
export function columnTreeScreens(decl: ColumnTreeDecl) {
  return {
    CategoryList: () => <ColumnTreeList {...decl} />,
    CategoryCreate: () => <ColumnCreate resource={decl.resource} />,
    CategoryEdit: () => <ColumnEdit resource={decl.resource} />,
  };
}
