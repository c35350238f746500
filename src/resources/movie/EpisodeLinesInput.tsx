import AddIcon from '@mui/icons-material/Add';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import ContentPasteIcon from '@mui/icons-material/ContentPaste';
import DeleteIcon from '@mui/icons-material/Delete';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  IconButton,
  MenuItem,
  Paper,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useId, useState } from 'react';
import { useGetList, useInput, useTranslate } from 'react-admin';
import { MAX_EPISODE_NAME, MAX_EPISODE_URL, parseEpisodeList } from '../../../common/episodes';
import { SECTION_MSG } from './names';

const MSG = `${SECTION_MSG}.episodes`;
/** Episodes shown at first per line: a long series stays quick to open, the rest one click away. */
const SHOWN = 30;

interface Episode {
  name: string;
  path: string;
}
interface Line {
  sourceId: number | '';
  episodes: Episode[];
}
interface Play {
  sourceId: number;
  line?: number;
  name?: string;
  path: string;
  sort?: number;
}

/** The form's flat `plays` (what the API reads and answers) as lines of episodes, in line then episode order. */
export function linesOf(plays: readonly Play[] | undefined): Line[] {
  const sorted = [...(plays ?? [])]
    .map((p, i) => ({ ...p, line: p.line ?? i, sort: p.sort ?? 0, i }))
    .sort((a, b) => a.line - b.line || a.sort - b.sort || a.i - b.i);
  const lines: Line[] = [];
  let last: number | undefined;
  for (const p of sorted) {
    if (p.line !== last) lines.push({ sourceId: p.sourceId, episodes: [] });
    last = p.line;
    lines[lines.length - 1].episodes.push({ name: p.name ?? '', path: p.path });
  }
  return lines;
}

/** Lines back to the flat `plays`: each line numbered by its place, each episode by its place in the line. */
export function playsOf(lines: readonly Line[]): Play[] {
  return lines.flatMap((l, line) =>
    l.episodes.map((e, sort) => ({
      sourceId: l.sourceId as number,
      line,
      name: e.name.trim(),
      path: e.path.trim(),
      sort,
    })),
  );
}

const complete = (plays: Play[] | undefined) =>
  (plays ?? []).every((p) => p.sourceId && p.path?.trim() && (p.name ?? '').length <= MAX_EPISODE_NAME)
    ? undefined
    : `${MSG}.incomplete`;

/**
 * A movie's episodes as lines × episodes: each line one source and its list of named episodes, added,
 * removed and moved with buttons (keyboard reachable), or pasted whole in MacCMS's `name$url#…` notation. The value
 * stays the API's flat `plays`, renumbered on every change.
 */
export function EpisodeLinesInput() {
  const translate = useTranslate();
  const { field } = useInput({ source: 'plays', validate: complete, defaultValue: [] });
  const { data: sources = [] } = useGetList('movie/sources', {
    pagination: { page: 1, perPage: 100 },
    sort: { field: 'priority', order: 'DESC' },
  });
  const lines = linesOf(field.value);
  const [pasting, setPasting] = useState<number | null>(null);
  const set = (next: Line[]) => field.onChange(playsOf(next));
  const change = (i: number, line: Line) => set(lines.map((l, j) => (j === i ? line : l)));

  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, width: '100%' }}>
      <Typography component="legend" variant="subtitle2" sx={{ mb: 1 }}>
        {translate(`${MSG}.title`)}
      </Typography>
      {!lines.length && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {translate(sources.length ? `${MSG}.none` : `${MSG}.noSources`)}
        </Typography>
      )}
      <Stack spacing={2}>
        {lines.map((line, i) => (
          <LineEditor
            // Lines have no id of their own; their place is what the form knows them by.
            // biome-ignore lint/suspicious/noArrayIndexKey: a line is its place
            key={i}
            n={i + 1}
            line={line}
            sources={sources}
            onChange={(l) => change(i, l)}
            onRemove={() => set(lines.filter((_, j) => j !== i))}
            onPaste={() => setPasting(i)}
          />
        ))}
      </Stack>
      <Button
        startIcon={<AddIcon />}
        sx={{ mt: 1 }}
        disabled={!sources.length}
        onClick={() =>
          set([...lines, { sourceId: sources[0]?.id ?? '', episodes: [{ name: '', path: '' }] }])
        }
      >
        {translate(`${MSG}.addLine`)}
      </Button>
      <PasteDialog
        n={pasting === null ? 0 : pasting + 1}
        open={pasting !== null}
        onClose={() => setPasting(null)}
        onConfirm={(episodes) => {
          if (pasting === null) return;
          const line = lines[pasting];
          // A fresh line's one empty episode is a placeholder, not an episode to keep.
          const kept = line.episodes.filter((e) => e.path.trim() || e.name.trim());
          change(pasting, { ...line, episodes: [...kept, ...episodes] });
          setPasting(null);
        }}
      />
    </Box>
  );
}

function LineEditor({
  n,
  line,
  sources,
  onChange,
  onRemove,
  onPaste,
}: {
  n: number;
  line: Line;
  sources: { id: number | string; name?: string }[];
  onChange: (line: Line) => void;
  onRemove: () => void;
  onPaste: () => void;
}) {
  const translate = useTranslate();
  const [all, setAll] = useState(false);
  const shown = all ? line.episodes : line.episodes.slice(0, SHOWN);
  const setEpisodes = (episodes: Episode[]) => onChange({ ...line, episodes });
  const move = (i: number, by: number) => {
    const next = [...line.episodes];
    [next[i], next[i + by]] = [next[i + by], next[i]];
    setEpisodes(next);
  };
  return (
    <Paper variant="outlined" sx={{ p: 1.5 }} role="group" aria-label={translate(`${MSG}.line`, { n })}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', mb: 1 }}>
        <Typography variant="subtitle2">{translate(`${MSG}.line`, { n })}</Typography>
        <TextField
          select
          size="small"
          label={translate(`${MSG}.source`, { n })}
          value={line.sourceId}
          onChange={(e) => onChange({ ...line, sourceId: Number(e.target.value) })}
          sx={{ minWidth: 180 }}
        >
          {sources.map((s) => (
            <MenuItem key={s.id} value={s.id}>
              {s.name}
            </MenuItem>
          ))}
        </TextField>
        <Typography variant="body2" color="text.secondary">
          {translate(`${MSG}.count`, { smart_count: line.episodes.length })}
        </Typography>
        <Box sx={{ flex: 1 }} />
        <Button size="small" startIcon={<ContentPasteIcon />} onClick={onPaste}>
          {translate(`${MSG}.paste`)}
        </Button>
        <IconButton size="small" aria-label={translate(`${MSG}.removeLine`, { n })} onClick={onRemove}>
          <DeleteIcon fontSize="small" />
        </IconButton>
      </Stack>
      <Box component="ol" sx={{ m: 0, pl: 0, listStyle: 'none' }}>
        {shown.map((e, i) => (
          <EpisodeRow
            // biome-ignore lint/suspicious/noArrayIndexKey: an episode is its place in the line
            key={i}
            i={i}
            last={i === line.episodes.length - 1}
            episode={e}
            onChange={(ep) => setEpisodes(line.episodes.map((x, j) => (j === i ? ep : x)))}
            onMove={move}
            onRemove={() => setEpisodes(line.episodes.filter((_, j) => j !== i))}
          />
        ))}
      </Box>
      <Stack direction="row" spacing={1}>
        <Button
          size="small"
          startIcon={<AddIcon />}
          onClick={() => setEpisodes([...line.episodes, { name: '', path: '' }])}
        >
          {translate(`${MSG}.addEpisode`)}
        </Button>
        {!all && line.episodes.length > SHOWN && (
          <Button size="small" onClick={() => setAll(true)}>
            {translate(`${MSG}.showAll`, { n: line.episodes.length })}
          </Button>
        )}
      </Stack>
    </Paper>
  );
}

/** One episode: its name (empty: the main feature), its path or URL, and its buttons. */
function EpisodeRow({
  i,
  last,
  episode,
  onChange,
  onMove,
  onRemove,
}: {
  i: number;
  last: boolean;
  episode: Episode;
  onChange: (e: Episode) => void;
  onMove: (i: number, by: number) => void;
  onRemove: () => void;
}) {
  const translate = useTranslate();
  const n = i + 1;
  const missing = !episode.path.trim();
  return (
    <Box component="li" sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', mb: 1 }}>
      <Typography variant="body2" sx={{ width: 28, pt: 1, textAlign: 'right' }} color="text.secondary">
        {n}
      </Typography>
      <TextField
        size="small"
        label={translate(`${MSG}.name`)}
        placeholder={translate(`${MSG}.namePlaceholder`)}
        value={episode.name}
        slotProps={{
          htmlInput: { maxLength: MAX_EPISODE_NAME, 'aria-label': `${translate(`${MSG}.name`)} ${n}` },
        }}
        onChange={(e) => onChange({ ...episode, name: e.target.value })}
        sx={{ width: 140 }}
      />
      <TextField
        size="small"
        label={translate(`${MSG}.path`)}
        value={episode.path}
        error={missing}
        helperText={missing ? translate('ra.validation.required') : undefined}
        slotProps={{
          htmlInput: { maxLength: MAX_EPISODE_URL, 'aria-label': `${translate(`${MSG}.path`)} ${n}` },
        }}
        onChange={(e) => onChange({ ...episode, path: e.target.value })}
        sx={{ flex: 1, minWidth: 200 }}
      />
      <IconButton
        size="small"
        disabled={i === 0}
        aria-label={translate(`${MSG}.up`, { n })}
        onClick={() => onMove(i, -1)}
      >
        <ArrowUpwardIcon fontSize="small" />
      </IconButton>
      <IconButton
        size="small"
        disabled={last}
        aria-label={translate(`${MSG}.down`, { n })}
        onClick={() => onMove(i, 1)}
      >
        <ArrowDownwardIcon fontSize="small" />
      </IconButton>
      <IconButton size="small" aria-label={translate(`${MSG}.remove`, { n })} onClick={onRemove}>
        <DeleteIcon fontSize="small" />
      </IconButton>
    </Box>
  );
}

/** A whole `name$url#name$url` list for one line: the good episodes are shown by count, each bad piece by its number and why. */
function PasteDialog({
  n,
  open,
  onClose,
  onConfirm,
}: {
  n: number;
  open: boolean;
  onClose: () => void;
  onConfirm: (episodes: Episode[]) => void;
}) {
  const translate = useTranslate();
  const titleId = useId();
  const [text, setText] = useState('');
  const parsed = parseEpisodeList(text);
  const close = () => {
    setText('');
    onClose();
  };
  return (
    <Dialog open={open} onClose={close} aria-labelledby={titleId} fullWidth maxWidth="md">
      <DialogTitle id={titleId}>{translate(`${MSG}.pasteTitle`, { n })}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 1 }}>{translate(`${MSG}.pasteHint`)}</DialogContentText>
        <TextField
          label={translate(`${MSG}.pasteText`)}
          value={text}
          onChange={(e) => setText(e.target.value.slice(0, 2_000_000))}
          multiline
          minRows={4}
          maxRows={12}
          fullWidth
        />
        {text.trim() && (
          <Typography variant="body2" sx={{ mt: 1 }} role="status">
            {translate(`${MSG}.pasteGood`, { smart_count: parsed.value.length })}
          </Typography>
        )}
        {parsed.problems.length > 0 && (
          <Alert severity="warning" sx={{ mt: 1 }}>
            {translate(`${MSG}.pasteBad`)}
            <Box component="ul" sx={{ m: 0, pl: 2 }}>
              {parsed.problems.slice(0, 50).map((p) => (
                <li key={p.piece}>
                  {translate(`${MSG}.pastePiece`, {
                    n: p.piece + 1,
                    text: p.text,
                    reason: translate(`${MSG}.problem.${p.reason}`),
                  })}
                </li>
              ))}
            </Box>
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>{translate('ra.action.cancel')}</Button>
        <Button
          variant="contained"
          disabled={!parsed.value.length}
          onClick={() => {
            onConfirm(parsed.value.map((e) => ({ name: e.name, path: e.url })));
            setText('');
          }}
        >
          {translate(`${MSG}.pasteConfirm`)}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
