import ImageNotSupportedOutlined from '@mui/icons-material/ImageNotSupportedOutlined';
import { Box, Skeleton, type SxProps, type Theme } from '@mui/material';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslate } from 'react-admin';
import { useSystemSettings } from '../api/system';
import { decryptImage, imageMime } from './decrypt';
import { imageUrl } from './url';

export interface SecureImageProps {
  /** The stored path (`/upload/…`, shown from `imgdomain`), or an absolute URL. */
  src?: string | null;
  alt: string;
  width?: number | string;
  height?: number | string;
  sx?: SxProps<Theme>;
}

type Shown =
  | { url: string; status: 'ready'; objectUrl: string }
  | { url: string; status: 'direct' }
  | { url: string; status: 'failed' };

/** True once `el` has come near the viewport (and from then on); true at once without IntersectionObserver. */
function useSeen(el: Element | null): boolean {
  const [seen, setSeen] = useState(false);
  useEffect(() => {
    if (!el || seen) return;
    if (typeof IntersectionObserver === 'undefined') {
      setSeen(true);
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          setSeen(true);
          observer.disconnect();
        }
      },
      { rootMargin: '200px' },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [el, seen]);
  return seen;
}

/**
 * An image from the image host (SPEC.md §7, DESIGN.md §8): fetched only once it scrolls into view, decrypted when
 * its bytes start with the marker, shown as it is otherwise. A failure (fetch, decryption) is written to the
 * console only and leaves a neutral placeholder: no toast. When the host refuses a cross-origin fetch, the
 * address is handed to the <img> itself, which still shows a plain image. Object URLs are revoked when the
 * source changes and on unmount.
 */
export function SecureImage({ src, alt, width, height, sx }: SecureImageProps) {
  const translate = useTranslate();
  const imgdomain = useSystemSettings()?.imgdomain;
  const url = imageUrl(src, imgdomain);
  const [box, setBox] = useState<HTMLSpanElement | null>(null);
  const seen = useSeen(box);
  const [shown, setShown] = useState<Shown | null>(null);

  useEffect(() => {
    if (!url || !seen) return;
    let live = true;
    let objectUrl: string | undefined;
    const controller = new AbortController();
    (async () => {
      let res: Response;
      try {
        res = await fetch(url, { signal: controller.signal, credentials: 'omit' });
      } catch (err) {
        if (!live) return;
        // Transport or CORS refusal: the browser may still show a plain image by itself.
        console.error(`[image] cannot fetch ${url}; showing it directly`, err);
        setShown({ url, status: 'direct' });
        return;
      }
      try {
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        const plain = await decryptImage(new Uint8Array(await res.arrayBuffer()));
        if (!live) return;
        objectUrl = URL.createObjectURL(
          new Blob([plain as Uint8Array<ArrayBuffer>], { type: imageMime(plain) }),
        );
        setShown({ url, status: 'ready', objectUrl });
      } catch (err) {
        if (!live) return;
        console.error(`[image] cannot show ${url}`, err);
        setShown({ url, status: 'failed' });
      }
    })();
    return () => {
      live = false;
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [url, seen]);

  const current = shown?.url === url ? shown : null;
  // No image at all (a novel without a cover) is an empty frame, not the broken-image sign of one that failed.
  const status = !url ? 'empty' : (current?.status ?? 'loading');
  // An unsized image takes its natural size; its skeleton and placeholder need one meanwhile.
  const size = { width: width ?? 'auto', height: height ?? 'auto' };
  const boxSize = { width: width ?? 120, height: height ?? 80 };

  let content: ReactNode;
  if (status === 'ready' || status === 'direct') {
    content = (
      <Box
        component="img"
        src={current?.status === 'ready' ? current.objectUrl : url}
        alt={alt}
        onError={() => {
          console.error(`[image] the browser cannot show ${url}`);
          setShown({ url, status: 'failed' });
        }}
        sx={{ display: 'block', objectFit: 'contain', maxWidth: '100%', ...size }}
      />
    );
  } else if (status === 'failed') {
    content = (
      <Box
        component="span"
        role="img"
        aria-label={alt || translate('images.image.unavailable')}
        title={translate('images.image.unavailable')}
        sx={{
          ...boxSize,
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          bgcolor: 'action.hover',
          color: 'text.secondary',
          borderRadius: 1,
        }}
      >
        <ImageNotSupportedOutlined fontSize="small" aria-hidden />
      </Box>
    );
  } else if (status === 'empty') {
    content = (
      <Box
        component="span"
        role="img"
        aria-label={translate('images.image.none')}
        title={translate('images.image.none')}
        sx={{ ...boxSize, display: 'block', bgcolor: 'action.hover', borderRadius: 1 }}
      />
    );
  } else {
    content = (
      <Skeleton
        variant="rectangular"
        role="img"
        aria-label={alt || translate('images.image.loading')}
        aria-busy
        sx={{ ...boxSize, borderRadius: 1 }}
      />
    );
  }
  return (
    <Box
      component="span"
      ref={setBox}
      data-image-state={status}
      sx={[
        { display: 'inline-block', verticalAlign: 'middle', maxWidth: '100%' },
        ...(Array.isArray(sx) ? sx : [sx]),
      ]}
    >
      {content}
    </Box>
  );
}
