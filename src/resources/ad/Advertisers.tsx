import BusinessIcon from '@mui/icons-material/Business';
import DeleteIcon from '@mui/icons-material/Delete';
import {
  Box,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  Button as MuiButton,
  Switch,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Tooltip,
} from '@mui/material';
import { useId, useState } from 'react';
import { Button, useDataProvider, useGetList, useNotify, useTranslate } from 'react-admin';
import { useCan } from '../../auth/permission';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ADVERTISER_RESOURCE, SECTION_MSG } from './names';

const A = `${SECTION_MSG}.advertisers`;

/** The advertisers: every operator sees them; admins add, switch on or off (with the version read) and delete. */
function AdvertisersDialog({ onClose }: { onClose: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider();
  const titleId = useId();
  const admin = useCan('ad.edit');
  const {
    data = [],
    isPending,
    refetch,
  } = useGetList(ADVERTISER_RESOURCE, {
    pagination: { page: 1, perPage: 100 },
    sort: { field: 'name', order: 'ASC' },
  });
  const [draft, setDraft] = useState({ name: '', contact: '', notes: '' });
  const [removing, setRemoving] = useState<{ id: number; name: string } | null>(null);
  const add = async () => {
    try {
      await dataProvider.create(ADVERTISER_RESOURCE, { data: draft });
      setDraft({ name: '', contact: '', notes: '' });
      notify(`${A}.added`, { type: 'success' });
      refetch();
    } catch {
      // the HTTP client has shown the server's message
    }
  };
  const toggle = async (r: { id: number; enabled: boolean; version: number }) => {
    try {
      await dataProvider.update(ADVERTISER_RESOURCE, {
        id: r.id,
        data: { enabled: !r.enabled, version: r.version },
        previousData: r,
      });
    } finally {
      refetch();
    }
  };
  const remove = async () => {
    if (!removing) return;
    try {
      await dataProvider.delete(ADVERTISER_RESOURCE, { id: removing.id });
      notify(`${A}.deleted`, { type: 'success' });
    } catch {
      // refused (it still has materials): the message says so
    } finally {
      setRemoving(null);
      refetch();
    }
  };
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="md">
      <DialogTitle id={titleId}>{translate(`${A}.title`)}</DialogTitle>
      <DialogContent>
        <Table size="small" aria-busy={isPending}>
          <TableHead>
            <TableRow>
              <TableCell>{translate(`${A}.name`)}</TableCell>
              <TableCell>{translate(`${A}.contact`)}</TableCell>
              <TableCell>{translate(`${A}.notes`)}</TableCell>
              <TableCell>{translate(`${A}.enabled`)}</TableCell>
              {admin && <TableCell />}
            </TableRow>
          </TableHead>
          <TableBody>
            {data.length === 0 && !isPending && (
              <TableRow>
                <TableCell colSpan={5}>{translate(`${A}.empty`)}</TableCell>
              </TableRow>
            )}
            {data.map((r) => (
              <TableRow key={r.id}>
                <TableCell>{r.name}</TableCell>
                <TableCell>{r.contact}</TableCell>
                <TableCell>{r.notes}</TableCell>
                <TableCell>
                  <Switch
                    checked={r.enabled}
                    disabled={!admin}
                    onChange={() => toggle(r as any)}
                    slotProps={{ input: { 'aria-label': translate(`${A}.enableOf`, { name: r.name }) } }}
                  />
                </TableCell>
                {admin && (
                  <TableCell align="right">
                    <Tooltip title={translate('ra.action.delete')}>
                      <IconButton
                        aria-label={translate(`${A}.deleteOf`, { name: r.name })}
                        onClick={() => setRemoving({ id: r.id as number, name: r.name })}
                      >
                        <DeleteIcon />
                      </IconButton>
                    </Tooltip>
                  </TableCell>
                )}
              </TableRow>
            ))}
          </TableBody>
        </Table>
        {admin && (
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mt: 2, alignItems: 'center' }}>
            <TextField
              size="small"
              label={translate(`${A}.name`)}
              value={draft.name}
              onChange={(e) => setDraft({ ...draft, name: e.target.value })}
              slotProps={{ htmlInput: { maxLength: 64 } }}
            />
            <TextField
              size="small"
              label={translate(`${A}.contact`)}
              value={draft.contact}
              onChange={(e) => setDraft({ ...draft, contact: e.target.value })}
              slotProps={{ htmlInput: { maxLength: 128 } }}
            />
            <TextField
              size="small"
              label={translate(`${A}.notes`)}
              value={draft.notes}
              onChange={(e) => setDraft({ ...draft, notes: e.target.value })}
              slotProps={{ htmlInput: { maxLength: 500 } }}
            />
            <MuiButton variant="contained" onClick={add} disabled={!draft.name.trim()}>
              {translate(`${A}.add`)}
            </MuiButton>
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        <MuiButton onClick={onClose}>{translate('ra.action.close')}</MuiButton>
      </DialogActions>
      <ConfirmDialog
        open={!!removing}
        title={translate('ra.action.delete')}
        question={translate(`${A}.confirmDelete`, { name: removing?.name ?? '' })}
        color="error"
        onClose={() => setRemoving(null)}
        onConfirm={remove}
      />
    </Dialog>
  );
}

export function AdvertisersButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button label={`${A}.title`} onClick={() => setOpen(true)}>
        <BusinessIcon />
      </Button>
      {open && <AdvertisersDialog onClose={() => setOpen(false)} />}
    </>
  );
}
