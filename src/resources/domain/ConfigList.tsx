import LinkIcon from '@mui/icons-material/Link';
import SwapHorizIcon from '@mui/icons-material/SwapHoriz';
import {
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  InputAdornment,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useEffect, useState } from 'react';
import { Loading, useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { PAGE_SIZES } from '../../../common/paging';
import { request } from '../../api/http';
import { visuallyHidden } from '../../components/ReportPeriod';
import { LocalTablePagination } from '../../layout/listParts';
import { CONFIG_API, CONFIG_MSG } from './names';
import { StatusChip } from './shared';

export interface Binding {
  id: number;
  hostname: string;
  unicode: string;
  role: string;
  status: any;
  poolId: number | null;
  version: number;
}
export interface ChannelRow {
  channel: string;
  domains: Binding[];
}

/** The channels (agents' promotion codes) and their domains; `q` is the start of the code. */
export function useChannels(q: string, channel?: string, page = 1, pageSize = 20) {
  const [data, setData] = useState<{ list: ChannelRow[]; total: number } | null>(null);
  useEffect(() => {
    let live = true;
    const t = setTimeout(() => {
      request<{ list: ChannelRow[]; total: number }>(`${CONFIG_API}/channels`, {
        query: { ...(q ? { q } : {}), ...(channel ? { channel } : {}), page, pageSize },
      })
        .then((r) => live && setData(r))
        .catch(() => live && setData({ list: [], total: 0 }));
    }, 250);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [q, channel, page, pageSize]);
  return data;
}

/** Channel bindings (`/domain/config`): which domains each channel promotes; a swap is one click away. */
export function ConfigList() {
  const translate = useTranslate();
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(20);
  const data = useChannels(q, undefined, page, pageSize);
  return (
    <Card sx={{ mt: 1 }}>
      <CardContent>
        <Stack direction="row" spacing={2} sx={{ mb: 2, alignItems: 'center' }}>
          <TextField
            size="small"
            value={q}
            onChange={(e) => {
              setQ(e.target.value);
              setPage(1);
            }}
            label={translate(`${CONFIG_MSG}.search`)}
            slotProps={{
              input: {
                startAdornment: (
                  <InputAdornment position="start">
                    <LinkIcon fontSize="small" />
                  </InputAdornment>
                ),
              },
            }}
          />
          <Typography variant="body2" color="text.secondary">
            {data ? translate(`${CONFIG_MSG}.total`, { count: data.total }) : ''}
          </Typography>
        </Stack>
        {!data ? (
          <Loading />
        ) : data.list.length === 0 ? (
          <Typography role="status" color="text.secondary" sx={{ py: 6, textAlign: 'center' }}>
            {translate(`${CONFIG_MSG}.empty`)}
          </Typography>
        ) : (
          <Table size="small" aria-label={translate(`${CONFIG_MSG}.title`)}>
            <TableHead>
              <TableRow>
                <TableCell>{translate(`${CONFIG_MSG}.channel`)}</TableCell>
                <TableCell>{translate(`${CONFIG_MSG}.domains`)}</TableCell>
                <TableCell>
                  <Box component="span" sx={visuallyHidden}>
                    {translate(`${CONFIG_MSG}.swap`)}
                  </Box>
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {data.list.map((row) => (
                <TableRow key={row.channel}>
                  <TableCell>
                    <Chip size="small" label={row.channel} />
                  </TableCell>
                  <TableCell>
                    <Stack spacing={0.5}>
                      {row.domains.map((d) => (
                        <Box key={d.id} sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
                          <span>{d.unicode}</span>
                          <StatusChip status={d.status} />
                        </Box>
                      ))}
                    </Stack>
                  </TableCell>
                  <TableCell>
                    <Button
                      size="small"
                      startIcon={<SwapHorizIcon />}
                      component={RouterLink}
                      to={`/domain/configEdit?channel=${encodeURIComponent(row.channel)}`}
                      aria-label={`${translate(`${CONFIG_MSG}.swap`)} ${row.channel}`}
                    >
                      {translate(`${CONFIG_MSG}.swap`)}
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
        {data && data.total > 0 && (
          <LocalTablePagination
            count={data.total}
            page={page - 1}
            rowsPerPage={pageSize}
            rowsPerPageOptions={[...PAGE_SIZES]}
            onPageChange={(_, p) => setPage(p + 1)}
            onRowsPerPageChange={(e) => {
              setPageSize(Number(e.target.value));
              setPage(1);
            }}
          />
        )}
      </CardContent>
    </Card>
  );
}
