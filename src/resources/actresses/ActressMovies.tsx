import AddLinkIcon from '@mui/icons-material/AddLink';
import LinkOffIcon from '@mui/icons-material/LinkOff';
import {
  Autocomplete,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Link,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import {
  type RaRecord,
  useDataProvider,
  useNotify,
  useRecordContext,
  useRefresh,
  useResourceContext,
  useTranslate,
} from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import type { ListAnswer, ResourceDataProvider } from '../../api/dataProvider';
import { request } from '../../api/http';
import { useAutocompleteTexts } from '../../components/autocompleteTexts';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { LocalTablePagination } from '../../layout/listParts';
import { editPathOf, MOVIE_RESOURCE, type MovieStatus } from '../movie/names';
import { StatusChip } from '../movie/shared';
import { ACTRESS_API, ACTRESS_MOVIES_MSG, ACTRESS_MSG } from './names';

interface HerMovie {
  id: number;
  title: string;
  status: MovieStatus;
  releaseDate: string | null;
  views: number;
}

const PAGE_SIZES = [10, 20, 50];

/** Movies found by title as the operator types (the movies API's index-served `q`), ten at a time. */
function useMovieSearch(text: string) {
  const dataProvider = useDataProvider();
  const [q, setQ] = useState(text);
  useEffect(() => {
    const t = setTimeout(() => setQ(text.trim()), 250);
    return () => clearTimeout(t);
  }, [text]);
  return useQuery({
    queryKey: ['actress-movie-search', q],
    queryFn: ({ signal }) =>
      dataProvider
        .getList(MOVIE_RESOURCE.review, {
          filter: q ? { q } : {},
          pagination: { page: 1, perPage: 10 },
          sort: { field: 'id', order: 'DESC' },
          signal,
        })
        .then((r) => r.data as RaRecord[]),
  });
}

/** A search picker over all movies; the chosen ones are linked to her in one transaction. */
function LinkMoviesDialog({
  open,
  onClose,
  onLinked,
}: {
  open: boolean;
  onClose: () => void;
  onLinked: () => void;
}) {
  const record = useRecordContext()!;
  const resource = useResourceContext()!;
  const dataProvider = useDataProvider<ResourceDataProvider>();
  const notify = useNotify();
  const translate = useTranslate();
  const autocompleteTexts = useAutocompleteTexts();
  const titleId = useId();
  const [text, setText] = useState('');
  const [chosen, setChosen] = useState<RaRecord[]>([]);
  const [busy, setBusy] = useState(false);
  const search = useMovieSearch(text);
  const close = () => {
    setChosen([]);
    setText('');
    onClose();
  };
  const link = async () => {
    setBusy(true);
    try {
      const { changed } = await dataProvider.action<{ changed: number }>(resource, record.id, 'movies', {
        movieIds: chosen.map((m) => m.id),
      });
      notify(`${ACTRESS_MSG}.notifications.linked`, { type: 'success', messageArgs: { count: changed } });
      close();
      onLinked();
    } catch {
      // the HTTP client has shown the server's message; nothing was linked
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open={open} onClose={close} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>
        {translate(`${ACTRESS_MOVIES_MSG}.linkTitle`, { name: record.name })}
      </DialogTitle>
      <DialogContent>
        <Autocomplete
          {...autocompleteTexts}
          multiple
          sx={{ mt: 1 }}
          options={search.data ?? []}
          loading={search.isFetching}
          value={chosen}
          onChange={(_, value) => setChosen(value)}
          inputValue={text}
          onInputChange={(_, value, reason) => {
            if (reason !== 'reset') setText(value);
          }}
          filterOptions={(options) => options}
          isOptionEqualToValue={(a, b) => a.id === b.id}
          getOptionLabel={(m) => m.title}
          noOptionsText={translate(`${ACTRESS_MOVIES_MSG}.noMatch`)}
          renderOption={({ key, ...props }, m) => (
            <li key={key} {...props}>
              <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', width: '100%' }}>
                <Typography variant="body2" sx={{ flex: 1 }}>
                  {m.title}
                </Typography>
                <StatusChip status={m.status} />
              </Box>
            </li>
          )}
          renderInput={(params) => (
            <TextField
              {...params}
              autoFocus
              label={translate(`${ACTRESS_MOVIES_MSG}.search`)}
              helperText={translate(`${ACTRESS_MOVIES_MSG}.searchHint`)}
              slotProps={{
                ...params.slotProps,
                input: {
                  ...params.slotProps.input,
                  endAdornment: (
                    <>
                      {search.isFetching ? (
                        <CircularProgress
                          color="inherit"
                          size={18}
                          aria-label={translate('ra.page.loading')}
                        />
                      ) : null}
                      {params.slotProps.input.endAdornment}
                    </>
                  ),
                },
              }}
            />
          )}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>{translate('ra.action.cancel')}</Button>
        <Button variant="contained" onClick={link} disabled={busy || chosen.length === 0}>
          {translate(`${ACTRESS_MOVIES_MSG}.link`)}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * Her movies on her profile page: each links to its edit page (the review pages for pending or rejected movies,
 * the online pages otherwise); movies are linked with a search picker and unlinked after a confirmation.
 */
export function ActressMovies() {
  const record = useRecordContext();
  const resource = useResourceContext()!;
  const dataProvider = useDataProvider<ResourceDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const queryClient = useQueryClient();
  const translate = useTranslate();
  const headingId = useId();
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState(10);
  const [linking, setLinking] = useState(false);
  const [unlinking, setUnlinking] = useState<HerMovie | null>(null);
  const id = record?.id;
  const movies = useQuery({
    queryKey: ['actress-movies', id, page, pageSize],
    enabled: id !== undefined,
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) =>
      request<ListAnswer<HerMovie>>(`${ACTRESS_API}/${encodeURIComponent(String(id))}/movies`, {
        query: { page: page + 1, pageSize, sort: 'createdAt', order: 'desc' },
        signal,
      }),
  });
  if (!record) return null;
  const changed = () => {
    queryClient.invalidateQueries({ queryKey: ['actress-movies', id] });
    refresh();
  };
  const unlink = async () => {
    if (!unlinking) return;
    try {
      await dataProvider.action(resource, record.id, 'unlink-movies', { movieIds: [unlinking.id] });
      notify(`${ACTRESS_MSG}.notifications.unlinked`, { type: 'success' });
      if (movies.data?.list.length === 1 && page > 0) setPage(page - 1);
      changed();
    } catch {
      // shown by the HTTP client
    } finally {
      setUnlinking(null);
    }
  };
  const rows = movies.data?.list ?? [];
  const total = movies.data?.total ?? 0;
  return (
    <Box component="section" aria-labelledby={headingId} sx={{ p: 2 }}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
        <Typography id={headingId} variant="h6" component="h2">
          {translate(`${ACTRESS_MOVIES_MSG}.title`)}{' '}
          <Typography component="span" variant="body2" color="text.secondary">
            {translate(`${ACTRESS_MOVIES_MSG}.count`, { count: total })}
          </Typography>
        </Typography>
        <Button startIcon={<AddLinkIcon />} variant="outlined" onClick={() => setLinking(true)}>
          {translate(`${ACTRESS_MOVIES_MSG}.link`)}
        </Button>
      </Stack>
      {movies.isPending ? (
        <CircularProgress size={24} aria-label={translate('ra.page.loading')} />
      ) : rows.length === 0 ? (
        <Typography color="text.secondary" role="status" sx={{ py: 2 }}>
          {translate(`${ACTRESS_MOVIES_MSG}.empty`)}
        </Typography>
      ) : (
        <>
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>{translate(`${ACTRESS_MOVIES_MSG}.column.title`)}</TableCell>
                <TableCell>{translate(`${ACTRESS_MOVIES_MSG}.column.status`)}</TableCell>
                <TableCell>{translate(`${ACTRESS_MOVIES_MSG}.column.releaseDate`)}</TableCell>
                <TableCell align="right">{translate(`${ACTRESS_MOVIES_MSG}.column.views`)}</TableCell>
                <TableCell>
                  <Box component="span" sx={visuallyHidden}>
                    {translate(`${ACTRESS_MOVIES_MSG}.unlink`)}
                  </Box>
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((m) => (
                <TableRow key={m.id} hover>
                  <TableCell>
                    <Link component={RouterLink} to={editPathOf(m.status, m.id)}>
                      {m.title}
                    </Link>
                  </TableCell>
                  <TableCell>
                    <StatusChip status={m.status} />
                  </TableCell>
                  <TableCell>{m.releaseDate ?? ''}</TableCell>
                  <TableCell align="right">{m.views.toLocaleString()}</TableCell>
                  <TableCell align="right">
                    <Button
                      size="small"
                      color="warning"
                      startIcon={<LinkOffIcon />}
                      onClick={() => setUnlinking(m)}
                      aria-label={`${translate(`${ACTRESS_MOVIES_MSG}.unlink`)} ${m.title}`}
                    >
                      {translate(`${ACTRESS_MOVIES_MSG}.unlink`)}
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          {total > PAGE_SIZES[0] && (
            <LocalTablePagination
              count={total}
              page={page}
              rowsPerPage={pageSize}
              rowsPerPageOptions={PAGE_SIZES}
              onPageChange={(_, p) => setPage(p)}
              onRowsPerPageChange={(e) => {
                setPageSize(Number(e.target.value));
                setPage(0);
              }}
            />
          )}
        </>
      )}
      <LinkMoviesDialog open={linking} onClose={() => setLinking(false)} onLinked={changed} />
      <ConfirmDialog
        open={unlinking !== null}
        title={translate(`${ACTRESS_MOVIES_MSG}.unlink`)}
        question={translate(`${ACTRESS_MOVIES_MSG}.confirmUnlink`, {
          title: unlinking?.title ?? '',
          name: record.name,
        })}
        onClose={() => setUnlinking(null)}
        onConfirm={unlink}
        color="warning"
      />
    </Box>
  );
}

const visuallyHidden = {
  border: 0,
  clip: 'rect(0 0 0 0)',
  height: '1px',
  margin: '-1px',
  overflow: 'hidden',
  padding: 0,
  position: 'absolute',
  whiteSpace: 'nowrap',
  width: '1px',
} as const;
