import { Alert, Box, Chip, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { useRecordContext, useTranslate } from 'react-admin';
import { SECTION_MSG } from './names';

interface Play {
  id: number;
  url: string;
  line?: number;
  name?: string;
  sourceName: string;
  sourceType: string;
  sourceEnabled: boolean;
}

const isHls = (play: Play) => play.sourceType === 'hls' || /\.m3u8(\?|$)/i.test(play.url);

/**
 * Plays one entry in the page: MP4 and native HLS (Safari) through the video element, other browsers' HLS through
 * hls.js, loaded only when an HLS entry is previewed. Returns a cleanup that detaches the stream.
 */
export async function attachStream(
  video: HTMLVideoElement,
  url: string,
  hls: boolean,
  onError: (kind: 'failed' | 'unsupported') => void,
): Promise<() => void> {
  if (!hls || video.canPlayType('application/vnd.apple.mpegurl')) {
    video.src = url;
    return () => {
      video.removeAttribute('src');
      video.load();
    };
  }
  const { default: Hls } = await import('hls.js');
  if (!Hls.isSupported()) {
    onError('unsupported');
    return () => undefined;
  }
  const player = new Hls();
  player.on(Hls.Events.ERROR, (_event, data) => {
    if (data.fatal) onError('failed');
  });
  player.loadSource(url);
  player.attachMedia(video);
  return () => player.destroy();
}

/** The plays grouped by line (in line then episode order, as the API answers them). */
function byLine(plays: Play[]): Play[][] {
  const lines: Play[][] = [];
  let last: number | undefined;
  plays.forEach((p, i) => {
    const line = p.line ?? i;
    if (line !== last || !lines.length) lines.push([]);
    last = line;
    lines[lines.length - 1].push(p);
  });
  return lines;
}

/**
 * The movie's episodes previewed in the page (review edit: a line and an episode chosen, the
 * first of each by default). A nameless episode is the main feature.
 */
export function VideoPreview() {
  const record = useRecordContext();
  const translate = useTranslate();
  const lines = byLine(record?.plays ?? []);
  const [lineIndex, setLine] = useState(0);
  const [episodeIndex, setEpisode] = useState(0);
  const [error, setError] = useState<'failed' | 'unsupported' | null>(null);
  const video = useRef<HTMLVideoElement>(null);
  const episodes = lines[Math.min(lineIndex, lines.length - 1)] ?? [];
  const play = episodes[Math.min(episodeIndex, episodes.length - 1)];
  const episodeName = (p: Play) => p.name || translate(`${SECTION_MSG}.episodes.mainFeature`);

  useEffect(() => {
    const el = video.current;
    if (!el || !play) return;
    setError(null);
    let cleanup: (() => void) | undefined;
    let cancelled = false;
    el.onerror = () => setError('failed');
    attachStream(el, play.url, isHls(play), (kind) => !cancelled && setError(kind)).then((fn) => {
      if (cancelled) fn();
      else cleanup = fn;
    });
    return () => {
      cancelled = true;
      el.onerror = null;
      cleanup?.();
    };
  }, [play]);

  return (
    <Box component="section" aria-labelledby="movie-preview-title" sx={{ width: '100%' }}>
      <Typography id="movie-preview-title" variant="subtitle1" component="h2" gutterBottom>
        {translate(`${SECTION_MSG}.preview.title`)}
      </Typography>
      {!play ? (
        <Typography color="text.secondary">{translate(`${SECTION_MSG}.preview.none`)}</Typography>
      ) : (
        <>
          {lines.length > 1 && (
            <Stack
              direction="row"
              spacing={1}
              sx={{ mb: 1, flexWrap: 'wrap' }}
              role="group"
              aria-label={translate(`${SECTION_MSG}.previewLine`)}
            >
              {lines.map((l, i) => (
                <Chip
                  key={l[0].id}
                  size="small"
                  clickable
                  color={i === lineIndex ? 'primary' : 'default'}
                  aria-pressed={i === lineIndex}
                  label={`${translate(`${SECTION_MSG}.episodes.line`, { n: i + 1 })} · ${l[0].sourceName}`}
                  onClick={() => {
                    setLine(i);
                    setEpisode(0);
                  }}
                />
              ))}
            </Stack>
          )}
          {episodes.length > 1 && (
            <TextField
              select
              size="small"
              label={translate(`${SECTION_MSG}.previewEpisode`)}
              value={Math.min(episodeIndex, episodes.length - 1)}
              onChange={(e) => setEpisode(Number(e.target.value))}
              sx={{ mb: 1, minWidth: 200 }}
            >
              {episodes.map((p, i) => (
                <MenuItem key={p.id} value={i}>
                  {`${i + 1}. ${episodeName(p)}`}
                </MenuItem>
              ))}
            </TextField>
          )}
          {episodes.length === 1 && (
            <Typography variant="body2" sx={{ mb: 1 }}>
              {episodeName(play)}
            </Typography>
          )}
          <video
            ref={video}
            controls
            preload="metadata"
            aria-label={translate(`${SECTION_MSG}.preview.title`)}
            data-url={play.url}
            style={{ width: '100%', maxHeight: 360, background: '#000', borderRadius: 4 }}
          >
            <track kind="captions" />
          </video>
          <Typography variant="caption" component="p" sx={{ wordBreak: 'break-all' }} color="text.secondary">
            {play.url}
            {!play.sourceEnabled && ` (${translate(`${SECTION_MSG}.preview.disabledSource`)})`}
          </Typography>
          {error && (
            <Alert severity="warning" sx={{ mt: 1 }}>
              {translate(`${SECTION_MSG}.preview.${error}`)}
            </Alert>
          )}
        </>
      )}
    </Box>
  );
}
