import { Alert, Box, Chip, Stack, Typography } from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { useRecordContext, useTranslate } from 'react-admin';
import { SECTION_MSG } from './names';

interface Play {
  id: number;
  url: string;
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

/** The movie's play entries, one chosen at a time, previewed in the page (issue #3: review edit). */
export function VideoPreview() {
  const record = useRecordContext();
  const translate = useTranslate();
  const plays: Play[] = record?.plays ?? [];
  const [index, setIndex] = useState(0);
  const [error, setError] = useState<'failed' | 'unsupported' | null>(null);
  const video = useRef<HTMLVideoElement>(null);
  const play = plays[Math.min(index, plays.length - 1)];

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
          {plays.length > 1 && (
            <Stack direction="row" spacing={1} sx={{ mb: 1, flexWrap: 'wrap' }} role="group">
              {plays.map((p, i) => (
                <Chip
                  key={p.id}
                  size="small"
                  clickable
                  color={i === index ? 'primary' : 'default'}
                  aria-pressed={i === index}
                  label={`${translate(`${SECTION_MSG}.preview.entry`, { n: i + 1 })} · ${p.sourceName}`}
                  onClick={() => setIndex(i)}
                />
              ))}
            </Stack>
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
