// @vitest-environment jsdom
import { createCipheriv } from 'node:crypto';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { AdminContext, Form, Notification, ResourceContextProvider, testDataProvider } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import {
  DEVELOPMENT_IV,
  DEVELOPMENT_KEY,
  IMAGE_MARKER as SERVER_MARKER,
} from '../../server/modules/images/cipher';
import { onToast } from '../../src/api/events';
import { logout } from '../../src/api/session';
import { loadSystemSettings } from '../../src/api/system';
import { createI18nProvider } from '../../src/i18n';
import { clearImageCipher, getImageCipher } from '../../src/images/cipher';
import {
  aesCbcPkcs7Decrypt,
  decryptImage,
  IMAGE_MARKER,
  ImageDecryptError,
  imageMime,
} from '../../src/images/decrypt';
import { ImageInput } from '../../src/images/ImageInput';
import { SecureImage } from '../../src/images/SecureImage';
import { imageUrl } from '../../src/images/url';
import { IMAGES } from '../api/images-fixtures';

// ---- helpers -------------------------------------------------------------------------------------------------

const KEY = DEVELOPMENT_KEY;
const IV = DEVELOPMENT_IV;
const PATH = '/upload/2026/06/0123456789abcdef0123456789abcdef.png';

/** What the API stores: the marker, then AES-CBC/PKCS#7 (node:crypto, independent of the code under test). */
function encrypt(plain: Uint8Array, key = KEY, iv = IV): Uint8Array {
  const k = Buffer.from(key, 'hex');
  const c = createCipheriv(`aes-${k.length * 8}-cbc`, k, Buffer.from(iv, 'hex'));
  return new Uint8Array(Buffer.concat([Buffer.from(IMAGE_MARKER), c.update(plain), c.final()]));
}

const envelope = (data: unknown, code = 20000, msg = 'ok', extra: Record<string, unknown> = {}) =>
  new Response(JSON.stringify({ code, msg, data, ...extra }), {
    headers: { 'Content-Type': 'application/json' },
  });
const cipherAnswer = (over: Record<string, unknown> = {}) =>
  envelope({
    algorithm: 'AES-CBC',
    padding: 'PKCS7',
    marker: IMAGE_MARKER,
    key: KEY,
    iv: IV,
    maxBytes: 5 * 1024 * 1024,
    ...over,
  });

/** A fetch that answers by URL (without the query); records every call. */
function stubNet(routes: Record<string, () => Response | Promise<Response>>) {
  const calls: { url: string; init?: RequestInit }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      calls.push({ url: String(url), init });
      const route = routes[String(url).split('?')[0]];
      if (!route) return new Response('Not found', { status: 404 });
      return route();
    }),
  );
  return calls;
}

/** IntersectionObserver under our control: `intersect()` tells every observer its element came into view. */
class FakeObserver {
  static all: FakeObserver[] = [];
  el: Element | null = null;
  disconnected = false;
  constructor(readonly callback: IntersectionObserverCallback) {
    FakeObserver.all.push(this);
  }
  observe(el: Element) {
    this.el = el;
  }
  unobserve() {}
  disconnect() {
    this.disconnected = true;
  }
  takeRecords() {
    return [];
  }
  static intersect() {
    for (const o of FakeObserver.all)
      if (!o.disconnected && o.el)
        o.callback([{ isIntersecting: true, target: o.el } as IntersectionObserverEntry], o as never);
  }
}

/** URL.createObjectURL/revokeObjectURL (jsdom has neither), remembering each blob. */
const blobs = new Map<string, Blob>();
const revoked: string[] = [];
let counter = 0;

async function bytesOf(blob: Blob): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(blob);
  });
}

const dataProvider = testDataProvider();
function wrap(children: ReactNode) {
  return render(
    <AdminContext dataProvider={dataProvider} i18nProvider={createI18nProvider('zh-CN')}>
      <ResourceContextProvider value="movie/review">{children}</ResourceContextProvider>
      <Notification />
    </AdminContext>,
  );
}

const toasts: string[] = [];
let offToast: () => void;

beforeEach(async () => {
  // The system settings store is the app's: start each test from an empty imgdomain (this server's /img).
  stubNet({ '/app/admin/sys/getSetting': () => envelope({ imgdomain: '', platforms: [] }) });
  await loadSystemSettings();
  vi.unstubAllGlobals();
  localStorage.setItem('token', 'tok-1');
  localStorage.setItem('locale', 'zh-CN');
  clearImageCipher();
  FakeObserver.all = [];
  vi.stubGlobal('IntersectionObserver', FakeObserver);
  blobs.clear();
  revoked.length = 0;
  (URL as any).createObjectURL = vi.fn((blob: Blob) => {
    const url = `blob:test/${++counter}`;
    blobs.set(url, blob);
    return url;
  });
  (URL as any).revokeObjectURL = vi.fn((url: string) => revoked.push(url));
  toasts.length = 0;
  offToast = onToast((t) => toasts.push(t.message));
});
afterEach(() => {
  offToast();
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  localStorage.clear();
  delete (URL as any).createObjectURL;
  delete (URL as any).revokeObjectURL;
});

const img = () => document.querySelector('img');
const state = () => document.querySelector('[data-image-state]')?.getAttribute('data-image-state');

// ---- decrypt.ts and url.ts ---------------------------------------------------------------------------------

describe('decrypt', () => {
  test("the SPA's marker is the server's", () => {
    expect(IMAGE_MARKER).toBe(SERVER_MARKER);
  });

  test.each([
    ['AES-128', '00112233445566778899aabbccddeeff'],
    ['AES-192', '00112233445566778899aabbccddeeff0011223344556677'],
    ['AES-256', DEVELOPMENT_KEY],
  ])('%s with crypto-js gives back what OpenSSL encrypted, whatever the length', (_, key) => {
    for (const plain of [IMAGES.png, IMAGES.gif, new Uint8Array(16).fill(7), new Uint8Array(0)]) {
      const stored = encrypt(plain, key);
      expect(aesCbcPkcs7Decrypt(stored.subarray(3), key, IV)).toEqual(plain);
    }
  });

  test('a wrong key, a damaged or truncated ciphertext throw ImageDecryptError', () => {
    const stored = encrypt(IMAGES.png).subarray(3);
    const wrong = '00112233445566778899aabbccddeeff';
    expect(() => aesCbcPkcs7Decrypt(stored, wrong, IV)).toThrow(ImageDecryptError);
    expect(() => aesCbcPkcs7Decrypt(stored.subarray(0, 20), KEY, IV)).toThrow(ImageDecryptError);
    expect(() => aesCbcPkcs7Decrypt(new Uint8Array(0), KEY, IV)).toThrow(ImageDecryptError);
    const damaged = stored.slice();
    damaged[damaged.length - 1] ^= 0xff; // the last block decrypts to garbage padding
    expect(() => aesCbcPkcs7Decrypt(damaged, KEY, IV)).toThrow(ImageDecryptError);
  });

  test('decryptImage: plain bytes come back as they are without asking for the key', async () => {
    const calls = stubNet({});
    expect(await decryptImage(IMAGES.jpeg)).toBe(IMAGES.jpeg);
    expect(calls).toEqual([]);
  });

  test('the key is fetched once per session with the token; logout forgets it; a new token fetches again', async () => {
    const calls = stubNet({ '/app/admin/upload/cipher': () => cipherAnswer() });
    const [a, b] = await Promise.all([decryptImage(encrypt(IMAGES.png)), decryptImage(encrypt(IMAGES.gif))]);
    expect([a, b]).toEqual([IMAGES.png, IMAGES.gif]);
    await decryptImage(encrypt(IMAGES.webp));
    expect(calls).toHaveLength(1);
    expect((calls[0].init?.headers as Record<string, string>)['Admin-Token']).toBe('tok-1');

    localStorage.setItem('token', 'tok-2'); // another login
    await getImageCipher();
    expect(calls).toHaveLength(2);

    await logout();
    localStorage.setItem('token', 'tok-2');
    await getImageCipher();
    expect(calls.filter((c) => c.url === '/app/admin/upload/cipher')).toHaveLength(3);
  });

  test('a failed key request is not kept', async () => {
    let answer = envelope(null, 50014, 'expired');
    const calls = stubNet({ '/app/admin/upload/cipher': () => answer });
    await expect(getImageCipher()).rejects.toThrow();
    answer = cipherAnswer();
    await expect(getImageCipher()).resolves.toMatchObject({ key: KEY });
    expect(calls).toHaveLength(2);
  });

  test('imageMime reads the magic bytes', () => {
    expect(imageMime(IMAGES.jpeg)).toBe('image/jpeg');
    expect(imageMime(IMAGES.png)).toBe('image/png');
    expect(imageMime(IMAGES.gif)).toBe('image/gif');
    expect(imageMime(IMAGES.webp)).toBe('image/webp');
    expect(imageMime(new TextEncoder().encode('<svg/>'))).toBe('');
  });

  test('imageUrl: imgdomain + path; empty imgdomain is this server /img; absolute URLs as they are', () => {
    expect(imageUrl(PATH, 'https://img.example.com')).toBe(`https://img.example.com${PATH}`);
    expect(imageUrl(PATH, 'https://img.example.com/')).toBe(`https://img.example.com${PATH}`);
    expect(imageUrl(PATH.slice(1), 'https://img.example.com')).toBe(`https://img.example.com${PATH}`);
    expect(imageUrl(PATH, '')).toBe(`/img${PATH}`);
    expect(imageUrl(PATH, undefined)).toBe(`/img${PATH}`);
    expect(imageUrl(PATH, '/images')).toBe(`/images${PATH}`);
    expect(imageUrl('https://cdn.example/a.jpg', 'https://img.example.com')).toBe(
      'https://cdn.example/a.jpg',
    );
    expect(imageUrl('//cdn.example/a.jpg', '')).toBe('//cdn.example/a.jpg');
    expect(imageUrl('data:image/png;base64,AAAA', '')).toBe('data:image/png;base64,AAAA');
    expect(imageUrl('', 'https://img.example.com')).toBe('');
    expect(imageUrl(null, 'https://img.example.com')).toBe('');
  });
});

// ---- SecureImage -----------------------------------------------------------------------------------------------

describe('SecureImage', () => {
  test('nothing is fetched until it scrolls into view; then imgdomain + path is fetched, without the token', async () => {
    const calls = stubNet({
      '/app/admin/sys/getSetting': () => envelope({ imgdomain: 'https://img.example.com', platforms: [] }),
      [`https://img.example.com${PATH}`]: () => new Response(IMAGES.png as Uint8Array<ArrayBuffer>),
    });
    await loadSystemSettings();
    calls.length = 0;
    wrap(<SecureImage src={PATH} alt="封面" width={120} height={90} />);
    expect(state()).toBe('loading');
    expect(screen.getByRole('img', { name: '封面' })).toBeTruthy(); // the skeleton carries the name meanwhile
    await new Promise((r) => setTimeout(r, 20));
    expect(calls).toEqual([]);
    act(() => FakeObserver.intersect());
    await waitFor(() => expect(state()).toBe('ready'));
    expect(calls.map((c) => c.url)).toEqual([`https://img.example.com${PATH}`]);
    expect(calls[0].init?.credentials).toBe('omit');
    expect(JSON.stringify(calls[0].init?.headers ?? {})).not.toContain('tok-1');
  });

  test('an encrypted image is decrypted and shown from a blob URL of the right type', async () => {
    const calls = stubNet({
      [`/img${PATH}`]: () => new Response(encrypt(IMAGES.png) as Uint8Array<ArrayBuffer>),
      '/app/admin/upload/cipher': () => cipherAnswer(),
    });
    wrap(<SecureImage src={PATH} alt="海报" />);
    act(() => FakeObserver.intersect());
    await waitFor(() => expect(img()).toBeTruthy());
    const src = img()!.getAttribute('src')!;
    expect(src).toMatch(/^blob:test\//);
    expect(img()!.getAttribute('alt')).toBe('海报');
    const blob = blobs.get(src)!;
    expect(blob.type).toBe('image/png');
    expect(await bytesOf(blob)).toEqual(IMAGES.png);
    expect(calls.map((c) => c.url)).toEqual([`/img${PATH}`, '/app/admin/upload/cipher']);
  });

  test('a plain image is shown as it is, and the key is never asked for', async () => {
    const calls = stubNet({ [`/img${PATH}`]: () => new Response(IMAGES.jpeg as Uint8Array<ArrayBuffer>) });
    wrap(<SecureImage src={PATH} alt="plain" />);
    act(() => FakeObserver.intersect());
    await waitFor(() => expect(img()).toBeTruthy());
    const blob = blobs.get(img()!.getAttribute('src')!)!;
    expect(await bytesOf(blob)).toEqual(IMAGES.jpeg);
    expect(blob.type).toBe('image/jpeg');
    expect(calls.map((c) => c.url)).toEqual([`/img${PATH}`]);
  });

  test('a decrypt failure goes to console.error only and leaves a neutral placeholder', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    stubNet({
      [`/img${PATH}`]: () => new Response(encrypt(IMAGES.png) as Uint8Array<ArrayBuffer>),
      '/app/admin/upload/cipher': () => cipherAnswer({ key: '00112233445566778899aabbccddeeff' }),
    });
    wrap(<SecureImage src={PATH} alt="坏图" width={100} height={60} />);
    act(() => FakeObserver.intersect());
    await waitFor(() => expect(state()).toBe('failed'));
    expect(img()).toBeNull();
    const placeholder = screen.getByRole('img', { name: '坏图' });
    expect(placeholder.getAttribute('title')).toBe('图片无法显示');
    expect(error).toHaveBeenCalledTimes(1);
    expect(String(error.mock.calls[0][0])).toContain(PATH);
    expect(error.mock.calls[0][1]).toBeInstanceOf(ImageDecryptError);
    expect(toasts).toEqual([]);
    expect(warn).not.toHaveBeenCalled();
    expect(document.querySelector('.MuiSnackbar-root')).toBeNull();
    expect(URL.createObjectURL).not.toHaveBeenCalled();
  });

  test('a missing image (404) is a placeholder too, logged, not toasted', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    stubNet({});
    wrap(<SecureImage src={PATH} alt="gone" />);
    act(() => FakeObserver.intersect());
    await waitFor(() => expect(state()).toBe('failed'));
    expect(error).toHaveBeenCalled();
    expect(toasts).toEqual([]);
  });

  test('no IntersectionObserver: it loads at once', async () => {
    vi.stubGlobal('IntersectionObserver', undefined);
    const calls = stubNet({ [`/img${PATH}`]: () => new Response(IMAGES.gif as Uint8Array<ArrayBuffer>) });
    wrap(<SecureImage src={PATH} alt="old browser" />);
    await waitFor(() => expect(img()).toBeTruthy());
    expect(calls).toHaveLength(1);
  });

  test('no src: an empty frame (not the broken-image sign), and nothing fetched', async () => {
    const calls = stubNet({});
    wrap(<SecureImage src="" alt="无图" />);
    act(() => FakeObserver.intersect());
    expect(state()).toBe('empty');
    // issue #52: a novel without a cover showed 图片无法显示 with the broken-image icon
    expect(document.querySelector('[data-image-state] svg')).toBeNull();
    expect(document.querySelector('[data-image-state] [role="img"]')?.getAttribute('title')).toMatch(
      /^(暂无图片|No image)$/,
    );
    await new Promise((r) => setTimeout(r, 20));
    expect(calls).toEqual([]);
  });

  test('object URLs are revoked when the source changes and on unmount', async () => {
    const other = '/upload/2026/06/fedcba9876543210fedcba9876543210.gif';
    stubNet({
      [`/img${PATH}`]: () => new Response(IMAGES.png as Uint8Array<ArrayBuffer>),
      [`/img${other}`]: () => new Response(IMAGES.gif as Uint8Array<ArrayBuffer>),
    });
    const view = wrap(<SecureImage src={PATH} alt="a" />);
    act(() => FakeObserver.intersect());
    await waitFor(() => expect(img()).toBeTruthy());
    const first = img()!.getAttribute('src')!;
    expect(revoked).toEqual([]);
    view.rerender(
      <AdminContext dataProvider={dataProvider} i18nProvider={createI18nProvider('zh-CN')}>
        <ResourceContextProvider value="movie/review">
          <SecureImage src={other} alt="a" />
        </ResourceContextProvider>
        <Notification />
      </AdminContext>,
    );
    await waitFor(() => expect(img()?.getAttribute('src')).not.toBe(first));
    await waitFor(() => expect(img()?.getAttribute('src')).toMatch(/^blob:/));
    const second = img()!.getAttribute('src')!;
    expect(revoked).toEqual([first]);
    expect(await bytesOf(blobs.get(second)!)).toEqual(IMAGES.gif);
    view.unmount();
    expect(revoked).toEqual([first, second]);
  });
});

// ---- ImageInput -----------------------------------------------------------------------------------------------

/** XMLHttpRequest under our control: each instance is kept; the test moves the upload and answers it. */
class FakeXhr {
  static all: FakeXhr[] = [];
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: FormData | null = null;
  status = 0;
  responseText = '';
  aborted = false;
  upload: { onprogress: ((e: ProgressEvent) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  constructor() {
    FakeXhr.all.push(this);
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: FormData) {
    this.body = body;
  }
  abort() {
    this.aborted = true;
  }
  progress(loaded: number, total: number) {
    act(() => this.upload.onprogress?.({ lengthComputable: true, loaded, total } as ProgressEvent));
  }
  answer(body: unknown, status = 200) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    act(() => this.onload?.());
  }
}

function Value() {
  const value = useWatch({ name: 'cover' });
  return <output data-testid="value">{JSON.stringify(value)}</output>;
}

function renderInput(record: Record<string, unknown> = { cover: '' }) {
  return wrap(
    <Form record={record}>
      <ImageInput source="cover" label="封面" />
      <Value />
    </Form>,
  );
}

const fileInput = () => screen.getByLabelText(/封面.*选择图片|封面.*更换图片/) as HTMLInputElement;
const choose = (file: File) => fireEvent.change(fileInput(), { target: { files: [file] } });
const value = () => JSON.parse(screen.getByTestId('value').textContent!);

describe('ImageInput', () => {
  beforeEach(() => {
    FakeXhr.all = [];
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
  });

  test('a chosen image is uploaded with the token, shows its progress, and the answered path is stored', async () => {
    stubNet({
      '/app/admin/upload/cipher': () => cipherAnswer(),
      [`/img${PATH}`]: () => new Response(encrypt(IMAGES.png) as Uint8Array<ArrayBuffer>),
    });
    renderInput();
    expect(value()).toBe('');
    expect(fileInput().getAttribute('type')).toBe('file');
    expect(screen.getByText('支持 JPEG、PNG、GIF、WebP，最大 5 MB')).toBeTruthy();
    choose(new File([IMAGES.png as Uint8Array<ArrayBuffer>], 'cover.png', { type: 'image/png' }));
    await waitFor(() => expect(FakeXhr.all).toHaveLength(1));
    const xhr = FakeXhr.all[0];
    expect([xhr.method, xhr.url]).toEqual(['POST', '/app/admin/upload/image']);
    expect(xhr.headers['Admin-Token']).toBe('tok-1');
    expect(xhr.headers['Accept-Language']).toBe('zh-CN');
    const sent = xhr.body!.get('file') as File;
    expect(sent.name).toBe('cover.png');

    xhr.progress(40, 100);
    const bar = screen.getByRole('progressbar', { name: '上传进度' });
    expect(bar.getAttribute('aria-valuenow')).toBe('40');
    expect(screen.getByText('上传中… 40%')).toBeTruthy();
    expect(fileInput().disabled).toBe(true);
    xhr.progress(100, 100);
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');

    xhr.answer({
      code: 20000,
      msg: '成功',
      data: { path: PATH, size: 85, type: 'image/png', width: 3, height: 2 },
    });
    await waitFor(() => expect(value()).toBe(PATH));
    expect(screen.queryByRole('progressbar')).toBeNull();
    // The preview decrypts the stored image.
    act(() => FakeObserver.intersect());
    await waitFor(() => expect(img()?.getAttribute('alt')).toBe('封面'));
    expect(await bytesOf(blobs.get(img()!.getAttribute('src')!)!)).toEqual(IMAGES.png);
  });

  test("a refused upload shows the server's message under the field and as a notification; the value stays", async () => {
    stubNet({ '/app/admin/upload/cipher': () => cipherAnswer() });
    renderInput();
    choose(new File([IMAGES.gif as Uint8Array<ArrayBuffer>], 'a.gif', { type: 'image/gif' }));
    await waitFor(() => expect(FakeXhr.all).toHaveLength(1));
    FakeXhr.all[0].answer({
      code: 40000,
      msg: 'file：图片过大（上限 5 MB）',
      data: { fields: { file: '图片过大（上限 5 MB）' } },
    });
    await waitFor(() => expect(screen.getAllByText('图片过大（上限 5 MB）')).toHaveLength(2));
    expect(fileInput().getAttribute('aria-invalid')).toBe('true');
    expect(value()).toBe('');
  });

  test('an expired session while uploading asks to log in again', async () => {
    const { onConfirmLogout } = await import('../../src/api/events');
    const asked = vi.fn();
    const off = onConfirmLogout(asked);
    stubNet({ '/app/admin/upload/cipher': () => cipherAnswer() });
    renderInput();
    choose(new File([IMAGES.gif as Uint8Array<ArrayBuffer>], 'a.gif', { type: 'image/gif' }));
    await waitFor(() => expect(FakeXhr.all).toHaveLength(1));
    FakeXhr.all[0].answer({ code: 50014, msg: '登录已过期，请重新登录', data: null });
    await waitFor(() => expect(asked).toHaveBeenCalledTimes(1));
    off();
  });

  test('checked here first: a renamed text file and a file over the limit are refused without uploading', async () => {
    stubNet({ '/app/admin/upload/cipher': () => cipherAnswer({ maxBytes: 1024 }) });
    renderInput();
    await screen.findByText('支持 JPEG、PNG、GIF、WebP，最大 1 KB');
    choose(new File(['just some text'], 'evil.png', { type: 'image/png' }));
    await waitFor(() => expect(screen.getAllByText('只能上传 JPEG、PNG、GIF、WebP 图片')).toHaveLength(2));
    const big = new Uint8Array(2048);
    big.set(IMAGES.png.subarray(0, 33));
    choose(new File([big], 'big.png', { type: 'image/png' }));
    expect(await screen.findAllByText('图片超过 1 KB')).not.toHaveLength(0);
    expect(FakeXhr.all).toEqual([]);
  });

  test('a dropped file is uploaded too', async () => {
    stubNet({ '/app/admin/upload/cipher': () => cipherAnswer() });
    renderInput();
    const zone = document.querySelector('[data-dropzone]')!;
    const file = new File([IMAGES.webp as Uint8Array<ArrayBuffer>], 'drop.webp', { type: 'image/webp' });
    fireEvent.dragOver(zone, { dataTransfer: { files: [file] } });
    fireEvent.drop(zone, { dataTransfer: { files: [file] } });
    await waitFor(() => expect(FakeXhr.all).toHaveLength(1));
    expect((FakeXhr.all[0].body!.get('file') as File).name).toBe('drop.webp');
  });

  test('the remove button clears the value', async () => {
    stubNet({
      '/app/admin/upload/cipher': () => cipherAnswer(),
      [`/img${PATH}`]: () => new Response(IMAGES.png as Uint8Array<ArrayBuffer>),
    });
    renderInput({ cover: PATH });
    expect(value()).toBe(PATH);
    expect(screen.getByRole('button', { name: '更换图片' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '移除图片' }));
    await waitFor(() => expect(value()).toBe(''));
    expect(screen.getByText('暂无图片')).toBeTruthy();
  });

  test('unmounting during an upload aborts it', async () => {
    stubNet({ '/app/admin/upload/cipher': () => cipherAnswer() });
    const view = renderInput();
    choose(new File([IMAGES.png as Uint8Array<ArrayBuffer>], 'a.png', { type: 'image/png' }));
    await waitFor(() => expect(FakeXhr.all).toHaveLength(1));
    view.unmount();
    expect(FakeXhr.all[0].aborted).toBe(true);
  });
});
