import UploadFileIcon from '@mui/icons-material/UploadFile';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  LinearProgress,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useId, useRef, useState } from 'react';
import { useLocaleState, useNotify, useRefresh, useTranslate } from 'react-admin';
import { ApiFailure, request } from '../../api/http';
import { CHAPTER_MSG, NOVEL_API } from './names';

/** What the dry run answers (server/modules/novel/import-routes.ts). */
export interface ImportPreview {
  encoding: string;
  chapters: { title: string; words: number }[];
  totalWords: number;
  skipped: number;
  preface: { words: number; excerpt: string } | null;
}

/** Chapters listed in the preview; the rest are summed up in a line. */
const SHOWN = 200;

/** 734 → "1 KB", 10485760 → "10.0 MB". */
export const fileSize = (bytes: number) =>
  bytes < 1048576 ? `${Math.max(1, Math.ceil(bytes / 1024))} KB` : `${(bytes / 1048576).toFixed(1)} MB`;

const numbered = (chapters: ImportPreview['chapters']) => chapters.map((ch, i) => ({ ...ch, number: i + 1 }));

const failure = (err: unknown) =>
  err instanceof ApiFailure
    ? ((err.data as { fields?: Record<string, string> } | null)?.fields?.file ?? err.message)
    : String((err as Error)?.message ?? err);

/**
 * Import a TXT file of chapters: choose the file, see how it splits (the server's dry run: titles and word counts,
 * the text before the first heading), then append them all in one transaction. The file is sent twice (preview,
 * then import): the server keeps nothing between the two.
 */
export function ImportDialog({ novelId, onClose }: { novelId: number; onClose: () => void }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const notify = useNotify();
  const refresh = useRefresh();
  const titleId = useId();
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [keepPreface, setKeepPreface] = useState(false);
  const [busy, setBusy] = useState<'preview' | 'import' | null>(null);
  const [error, setError] = useState<string | null>(null);

  const send = <T,>(path: string, extra: Record<string, string> = {}) => {
    const form = new FormData();
    form.append('file', file as File);
    for (const [k, v] of Object.entries(extra)) form.append(k, v);
    return request<T>(`${NOVEL_API}/${novelId}/${path}`, { method: 'POST', form, quiet: true });
  };

  const choose = (f: File | undefined) => {
    setFile(f ?? null);
    setPreview(null);
    setError(null);
    setKeepPreface(false);
  };

  const runPreview = async () => {
    setBusy('preview');
    setError(null);
    try {
      setPreview(await send<ImportPreview>('import/preview'));
    } catch (err) {
      setError(failure(err));
    } finally {
      setBusy(null);
    }
  };

  const runImport = async () => {
    setBusy('import');
    setError(null);
    try {
      const done = await send<{ added: number }>('import', { keepPreface: String(keepPreface) });
      notify(`${CHAPTER_MSG}.import.done`, { type: 'success', messageArgs: { count: done.added } });
      refresh();
      onClose();
    } catch (err) {
      setError(failure(err));
    } finally {
      setBusy(null);
    }
  };

  const n = (v: number) => v.toLocaleString(locale);
  const count = preview ? preview.chapters.length + (keepPreface && preview.preface ? 1 : 0) : 0;
  return (
    <Dialog open onClose={busy ? undefined : onClose} aria-labelledby={titleId} fullWidth maxWidth="md">
      <DialogTitle id={titleId}>{translate(`${CHAPTER_MSG}.import.title`)}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {translate(`${CHAPTER_MSG}.import.hint`)}
        </Typography>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
          <input
            ref={input}
            id={inputId}
            type="file"
            accept=".txt,text/plain"
            hidden
            onChange={(e) => choose(e.target.files?.[0])}
          />
          <Button variant="outlined" startIcon={<UploadFileIcon />} onClick={() => input.current?.click()}>
            {translate(`${CHAPTER_MSG}.import.choose`)}
          </Button>
          <Typography variant="body2" aria-live="polite">
            {file
              ? translate(`${CHAPTER_MSG}.import.file`, { name: file.name, size: fileSize(file.size) })
              : translate(`${CHAPTER_MSG}.import.noFile`)}
          </Typography>
        </Box>
        {busy && <LinearProgress sx={{ mt: 2 }} aria-label={translate(`${CHAPTER_MSG}.import.working`)} />}
        {error && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {error}
          </Alert>
        )}
        {preview && (
          <Box sx={{ mt: 2 }}>
            <Alert severity={preview.chapters.length ? 'info' : 'warning'}>
              {preview.chapters.length
                ? translate(`${CHAPTER_MSG}.import.summary`, {
                    chapters: n(preview.chapters.length),
                    words: n(preview.totalWords),
                    encoding: preview.encoding.toUpperCase(),
                  })
                : translate(`${CHAPTER_MSG}.import.none`)}
              {preview.skipped > 0 &&
                ` ${translate(`${CHAPTER_MSG}.import.skipped`, { count: preview.skipped })}`}
            </Alert>
            {preview.preface && (
              <Box sx={{ mt: 2 }}>
                <FormControlLabel
                  control={
                    <Checkbox checked={keepPreface} onChange={(e) => setKeepPreface(e.target.checked)} />
                  }
                  label={translate(`${CHAPTER_MSG}.import.keepPreface`, { words: n(preview.preface.words) })}
                />
                <Typography
                  variant="body2"
                  component="pre"
                  sx={{
                    whiteSpace: 'pre-wrap',
                    fontFamily: 'inherit',
                    color: 'text.secondary',
                    bgcolor: 'action.hover',
                    p: 1,
                    m: 0,
                    borderRadius: 1,
                    maxHeight: 96,
                    overflow: 'auto',
                  }}
                >
                  {preview.preface.excerpt}
                </Typography>
              </Box>
            )}
            {preview.chapters.length > 0 && (
              <Box
                sx={{ maxHeight: 320, overflow: 'auto', mt: 2 }}
                tabIndex={0}
                aria-label={translate(`${CHAPTER_MSG}.import.list`)}
              >
                <Table size="small" stickyHeader>
                  <TableHead>
                    <TableRow>
                      <TableCell>{translate(`${CHAPTER_MSG}.fields.number`)}</TableCell>
                      <TableCell>{translate(`${CHAPTER_MSG}.fields.title`)}</TableCell>
                      <TableCell align="right">{translate(`${CHAPTER_MSG}.fields.wordCount`)}</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {numbered(preview.chapters.slice(0, SHOWN)).map((ch) => (
                      <TableRow key={ch.number}>
                        <TableCell>{ch.number}</TableCell>
                        <TableCell>{ch.title}</TableCell>
                        <TableCell align="right">{n(ch.words)}</TableCell>
                      </TableRow>
                    ))}
                    {preview.chapters.length > SHOWN && (
                      <TableRow>
                        <TableCell colSpan={3} sx={{ color: 'text.secondary' }}>
                          {translate(`${CHAPTER_MSG}.import.more`, {
                            count: n(preview.chapters.length - SHOWN),
                          })}
                        </TableCell>
                      </TableRow>
                    )}
                  </TableBody>
                </Table>
              </Box>
            )}
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy !== null}>
          {translate('ra.action.cancel')}
        </Button>
        <Button onClick={runPreview} disabled={!file || busy !== null}>
          {translate(`${CHAPTER_MSG}.import.preview`)}
        </Button>
        <Button variant="contained" onClick={runImport} disabled={!preview || count === 0 || busy !== null}>
          {translate(`${CHAPTER_MSG}.import.confirm`, { count })}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
