import DragIndicatorIcon from '@mui/icons-material/DragIndicator';
import EditIcon from '@mui/icons-material/Edit';
import {
  Box,
  Card,
  Chip,
  IconButton,
  Link,
  Switch,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { type DragEvent, type KeyboardEvent, useEffect, useState } from 'react';
import {
  CreateButton,
  ListBase,
  Loading,
  TopToolbar,
  useDataProvider,
  useListContext,
  useNotify,
  useTranslate,
} from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { request } from '../../../api/http';
import { Permission, ReadOnlyBanner } from '../../../auth/permission';
import { visuallyHidden } from '../../../components/ReportPeriod';
import { stickyFirstColumnSx } from '../../../layout/listParts';
import { APP_MSG } from '../names';
import { PlatformChips, useCan } from '../shared';
import { AppIcon } from './AppInputs';

interface App {
  id: number;
  name: string;
  icon: string;
  url: string;
  os: 'android' | 'ios' | 'desktop';
  platforms: number[];
  sort: number;
  enabled: boolean;
  version: number;
}

/** `ids` with the one at `from` moved to `to` (indexes). */
export function moveId<T>(ids: readonly T[], from: number, to: number): T[] {
  const next = [...ids];
  const [moved] = next.splice(from, 1);
  next.splice(Math.max(0, Math.min(to, next.length)), 0, moved);
  return next;
}

function PositionInput({
  index,
  count,
  label,
  onMove,
}: {
  index: number;
  count: number;
  label: string;
  onMove: (to: number) => void;
}) {
  const [value, setValue] = useState(String(index + 1));
  useEffect(() => setValue(String(index + 1)), [index]);
  const commit = () => {
    const n = Number.parseInt(value, 10);
    if (!Number.isFinite(n)) return setValue(String(index + 1));
    const to = Math.max(1, Math.min(count, n)) - 1;
    if (to === index) return setValue(String(index + 1));
    onMove(to);
  };
  return (
    <TextField
      size="small"
      type="number"
      value={value}
      onChange={(e) => setValue(e.target.value)}
      onBlur={commit}
      onKeyDown={(e: KeyboardEvent) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          commit();
        }
      }}
      slotProps={{ htmlInput: { min: 1, max: count, 'aria-label': label, style: { width: 48 } } }}
    />
  );
}

/**
 * The apps in their order on the site. Admins reorder them by dragging a row, or by typing its new position; the
 * whole order is saved in one transaction (a list changed meanwhile is refused: the screen reloads).
 */
function OrderedApps() {
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const dataProvider = useDataProvider();
  const admin = useCan('promotion-apps.edit');
  const { data, isPending, refetch } = useListContext<App>();
  const [order, setOrder] = useState<App[]>([]);
  const [dragging, setDragging] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => setOrder(data ?? []), [data]);

  if (isPending) return <Loading />;

  const persist = async (next: App[]) => {
    setOrder(next);
    setBusy(true);
    try {
      await request('admin/setting/promotion-apps/reorder', {
        method: 'POST',
        json: { ids: next.map((a) => a.id) },
      });
      notify(`${APP_MSG}.notifications.reordered`, { type: 'success' });
    } catch {
      // shown by the HTTP client (a stale list is 40900); the server's order comes back below
    } finally {
      setBusy(false);
      refetch();
    }
  };
  const move = (from: number, to: number) => persist(moveId(order, from, to));

  const toggle = async (app: App) => {
    try {
      await dataProvider.update('setting/promotionapp', {
        id: app.id,
        data: { enabled: !app.enabled, version: app.version },
        previousData: app,
      });
    } catch {
      // shown by the HTTP client
    }
    refetch();
  };

  const onDrop = (e: DragEvent, to: number) => {
    e.preventDefault();
    if (dragging !== null && dragging !== to) move(dragging, to);
    setDragging(null);
  };

  if (!order.length)
    return (
      <Typography sx={{ p: 3 }} color="text.secondary">
        {translate(`${APP_MSG}.empty`)}
      </Typography>
    );

  return (
    <TableContainer sx={(theme) => stickyFirstColumnSx(theme)}>
      <Table size="small" aria-label={translate(`${APP_MSG}.name`, { smart_count: 2 })} aria-busy={busy}>
        <TableHead>
          <TableRow>
            {admin && (
              <TableCell padding="checkbox">
                <Box component="span" sx={visuallyHidden}>
                  {translate(`${APP_MSG}.drag`)}
                </Box>
              </TableCell>
            )}
            <TableCell>{translate(`${APP_MSG}.fields.sort`)}</TableCell>
            <TableCell>{translate(`${APP_MSG}.fields.icon`)}</TableCell>
            <TableCell>{translate(`${APP_MSG}.fields.name`)}</TableCell>
            <TableCell>{translate(`${APP_MSG}.fields.os`)}</TableCell>
            <TableCell>{translate(`${APP_MSG}.fields.platforms`)}</TableCell>
            <TableCell>{translate(`${APP_MSG}.fields.url`)}</TableCell>
            <TableCell>{translate(`${APP_MSG}.fields.enabled`)}</TableCell>
            {admin && (
              <TableCell>
                <Box component="span" sx={visuallyHidden}>
                  {translate('ra.action.edit')}
                </Box>
              </TableCell>
            )}
          </TableRow>
        </TableHead>
        <TableBody>
          {order.map((app, index) => (
            <TableRow
              key={app.id}
              data-testid={`app-row-${app.id}`}
              draggable={admin && !busy}
              onDragStart={(e) => {
                setDragging(index);
                e.dataTransfer.effectAllowed = 'move';
                e.dataTransfer.setData('text/plain', String(app.id));
              }}
              onDragOver={(e) => {
                if (dragging !== null) e.preventDefault();
              }}
              onDrop={(e) => onDrop(e, index)}
              onDragEnd={() => setDragging(null)}
              sx={{
                opacity: dragging === index ? 0.5 : 1,
                cursor: admin ? 'grab' : 'default',
                '& td': { opacity: app.enabled ? 1 : 0.75 },
              }}
            >
              {admin && (
                <TableCell padding="checkbox">
                  <DragIndicatorIcon fontSize="small" color="action" aria-hidden />
                </TableCell>
              )}
              <TableCell>
                {admin ? (
                  <PositionInput
                    index={index}
                    count={order.length}
                    label={translate(`${APP_MSG}.position`, { name: app.name })}
                    onMove={(to) => move(index, to)}
                  />
                ) : (
                  index + 1
                )}
              </TableCell>
              <TableCell>
                <AppIcon icon={app.icon} name={app.name} />
              </TableCell>
              <TableCell sx={{ maxWidth: 240, overflowWrap: 'anywhere' }}>{app.name}</TableCell>
              <TableCell>
                <Chip size="small" variant="outlined" label={translate(`${APP_MSG}.os.${app.os}`)} />
              </TableCell>
              <TableCell>
                <PlatformChips keys={app.platforms} />
              </TableCell>
              <TableCell
                sx={{ maxWidth: 280, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
              >
                {/* one line, cut with an ellipsis; the whole address in the tooltip */}
                <Link href={app.url} target="_blank" rel="noopener noreferrer" title={app.url}>
                  {app.url}
                </Link>
              </TableCell>
              <TableCell>
                {admin ? (
                  <Switch
                    size="small"
                    checked={app.enabled}
                    onChange={() => toggle(app)}
                    slotProps={{
                      input: { 'aria-label': translate(`${APP_MSG}.toggle`, { name: app.name }) },
                    }}
                  />
                ) : (
                  translate(app.enabled ? `${APP_MSG}.enabled.yes` : `${APP_MSG}.enabled.no`)
                )}
              </TableCell>
              {admin && (
                <TableCell>
                  <Tooltip title={translate('ra.action.edit')}>
                    <IconButton
                      size="small"
                      aria-label={`${translate('ra.action.edit')} ${app.name}`}
                      onClick={() => navigate(`/setting/promotionapp/edit/${app.id}`)}
                    >
                      <EditIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                </TableCell>
              )}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** Promotion apps (SPEC.md §2 /setting/promotionapp), all on one page in their order on the site. */
export function AppList() {
  const translate = useTranslate();
  const admin = useCan('promotion-apps.edit');
  return (
    <ListBase sort={{ field: 'sort', order: 'ASC' }} perPage={100} disableSyncWithLocation>
      <ReadOnlyBanner />
      <TopToolbar>
        <Permission need="promotion-apps.edit">
          <CreateButton />
        </Permission>
      </TopToolbar>
      <Card>
        {admin && (
          <Typography variant="body2" color="text.secondary" sx={{ px: 2, pt: 2 }}>
            {translate(`${APP_MSG}.reorderHint`)}
          </Typography>
        )}
        <OrderedApps />
      </Card>
    </ListBase>
  );
}
