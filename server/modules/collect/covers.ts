import type { Config } from '../../config';
import { eachLimited } from '../../core/each-limited';
import type { ImageStorage } from '../../core/image-storage';
import type { OutboundFetch } from '../../core/outbound';
import { refusalOf } from '../../core/outbound';
import { encryptImage, type ImageCipher, imageCipher } from '../images/cipher';
import { sniffImage } from '../images/format';
import { collectedImagePath, IMAGE_EXTS } from '../images/paths';

/**
 * A 'local' source's covers (a movie's or a novel's cover, an actress's picture) fetched into our image store: through
 * the outbound guard, outside any transaction, a few at a time, each bounded in bytes and time and stored encrypted
 * as an upload is, at a path of its URL (`collectedImagePath`) so that a rerun fetches nothing and changes nothing.
 */

/** One cover's fetch at most: a picture is a few hundred KB. */
export const COVER_TIMEOUT_MS = 5000;
/** Covers fetched at once by one run. */
export const COVER_FETCHES = 4;

/**
 * What a run's log says of an item's cover (resources.collect.cover.*): a dry run's `wouldFetch`, or why the fetch
 * failed and the site's URL was kept.
 */
export type CoverNote = 'wouldFetch' | 'refused' | 'timeout' | 'tooLarge' | 'http' | 'notImage';

export interface CoverEntry {
  note: CoverNote;
  /** The guard's reason or the HTTP status. */
  detail?: string;
}

/** The image store a run writes into, with the cipher and size limit of uploads. */
export interface RunImages {
  store: ImageStorage;
  cipher: ImageCipher;
  maxBytes: number;
}

export const runImages = (deps: {
  images: ImageStorage;
  config: Pick<Config, 'imageKey' | 'imageIv' | 'imageMaxBytes'>;
}): RunImages => ({
  store: deps.images,
  cipher: imageCipher(deps.config),
  maxBytes: deps.config.imageMaxBytes,
});

/** The path a cover of `url` was stored at by an earlier run, if any (one look per format, the usual first). */
async function storedPath(store: ImageStorage, url: string): Promise<string | undefined> {
  for (const ext of IMAGE_EXTS) {
    const path = await collectedImagePath(url, ext);
    if (await store.has(path)) return path;
  }
  return undefined;
}

/** Each URL's stored path, for the URLs an earlier run stored. */
export async function storedCovers(store: ImageStorage, urls: readonly string[]) {
  const found = new Map<string, string>();
  await eachLimited(urls, COVER_FETCHES, async (url) => {
    const path = await storedPath(store, url);
    if (path) found.set(url, path);
  });
  return found;
}

/** Fetches one cover and stores it: its path, or why it is not ours (the item keeps the site's URL). */
async function fetchCover(
  outbound: OutboundFetch,
  images: RunImages,
  allowHosts: readonly string[],
  url: string,
): Promise<{ path: string } | CoverEntry> {
  let answer: Awaited<ReturnType<OutboundFetch>>;
  try {
    answer = await outbound(url, {
      timeoutMs: COVER_TIMEOUT_MS,
      maxBytes: images.maxBytes,
      maxRedirects: 3,
      allowHosts,
      headers: { Accept: 'image/jpeg, image/png, image/gif, image/webp' },
    });
  } catch (err) {
    const reason = refusalOf(err);
    if (reason === 'timeout') return { note: 'timeout' };
    if (reason === 'size') return { note: 'tooLarge', detail: String(images.maxBytes) };
    return { note: 'refused', detail: reason ?? String((err as Error)?.message ?? err).slice(0, 100) };
  }
  if (answer.status < 200 || answer.status > 299) return { note: 'http', detail: String(answer.status) };
  const format = sniffImage(answer.body);
  if (!format) return { note: 'notImage' };
  const path = await collectedImagePath(url, format.ext);
  await images.store.put(path, await encryptImage(images.cipher, answer.body));
  return { path };
}

/** Fetches `urls` (a few at a time) into the store: the paths of those stored, the notes of those that failed. */
export async function fetchCovers(
  outbound: OutboundFetch,
  images: RunImages,
  allowHosts: readonly string[],
  urls: readonly string[],
) {
  const paths = new Map<string, string>();
  const notes = new Map<string, CoverEntry>();
  await eachLimited(urls, COVER_FETCHES, async (url) => {
    const got = await fetchCover(outbound, images, allowHosts, url);
    if ('path' in got) paths.set(url, got.path);
    else notes.set(url, got);
  });
  return { paths, notes };
}
