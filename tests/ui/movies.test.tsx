// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { AdminContext, ListContextProvider, ResourceContextProvider, testDataProvider } from 'react-admin';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { MAX_MOVIE_DESCRIPTION } from '../../common/movie';
import { createI18nProvider } from '../../src/i18n';
import { ListPagination } from '../../src/layout/listParts';
import { ReviewBulkActions } from '../../src/resources/movie/BulkActions';
import { columnTree } from '../../src/resources/movie/CategoryList';
import { validateDescription } from '../../src/resources/movie/MovieInputs';
import { clock } from '../../src/resources/movie/MovieList';
import { editPathOf } from '../../src/resources/movie/names';
import { attachStream } from '../../src/resources/movie/VideoPreview';

const hls = vi.hoisted(() => ({
  instances: [] as { source?: string; media?: unknown; destroyed: boolean }[],
  supported: true,
}));
vi.mock('hls.js', () => {
  class Hls {
    static Events = { ERROR: 'hlsError' };
    static isSupported = () => hls.supported;
    state: { source?: string; media?: unknown; destroyed: boolean } = { destroyed: false };
    constructor() {
      hls.instances.push(this.state);
    }
    on() {}
    loadSource(url: string) {
      this.state.source = url;
    }
    attachMedia(media: unknown) {
      this.state.media = media;
    }
    destroy() {
      this.state.destroyed = true;
    }
  }
  return { default: Hls };
});

const dataProvider = testDataProvider({ batch: vi.fn(async () => ({ changed: 2 })) } as never) as ReturnType<
  typeof testDataProvider
> & { batch: ReturnType<typeof vi.fn> };

function wrap(children: ReactNode) {
  return render(
    <AdminContext dataProvider={dataProvider} i18nProvider={createI18nProvider('zh-CN')}>
      <ResourceContextProvider value="movie/review">{children}</ResourceContextProvider>
    </AdminContext>,
  );
}

beforeEach(() => {
  dataProvider.batch.mockClear();
  hls.instances.length = 0;
  hls.supported = true;
});
afterEach(cleanup);

test('the column tree nests children under parents, orders siblings by sort then name, and keeps orphans as roots', () => {
  const tree = columnTree([
    { id: 1, parentId: null, name: '电影', sort: 2, visible: true, itemCount: 3 },
    { id: 2, parentId: null, name: '剧集', sort: 1, visible: true, itemCount: 0 },
    { id: 3, parentId: 1, name: '动作', sort: 0, visible: true, itemCount: 1 },
    { id: 4, parentId: 1, name: '爱情', sort: 0, visible: false, itemCount: 0 },
    { id: 5, parentId: 99, name: '孤儿', sort: 0, visible: true, itemCount: 0 },
  ]);
  expect(tree.map((n) => n.id)).toEqual([5, 2, 1]);
  const films = tree.find((n) => n.id === 1)!;
  expect(films.children.map((n) => [n.id, n.depth])).toEqual([
    [3, 1],
    [4, 1],
  ]);
});

test('durations read as clock time; an item is edited on the page of its status', () => {
  expect(clock(95)).toBe('1:35');
  expect(clock(5400)).toBe('1:30:00');
  expect(clock(0)).toBe('0:00');
  expect(editPathOf('pending', 7)).toBe('/movie/review/edit/7');
  expect(editPathOf('rejected', 7)).toBe('/movie/review/edit/7');
  expect(editPathOf('offline', 7)).toBe('/movie/onlinectx/edit/7');
});

test('MP4 plays through the video element; HLS goes through hls.js unless the browser plays it natively', async () => {
  const video = document.createElement('video');
  video.canPlayType = () => '';
  await attachStream(video, 'https://cdn/a.mp4', false, () => undefined);
  expect(video.getAttribute('src')).toBe('https://cdn/a.mp4');
  expect(hls.instances).toHaveLength(0);

  const other = document.createElement('video');
  other.canPlayType = () => '';
  const detach = await attachStream(other, 'https://cdn/a.m3u8', true, () => undefined);
  expect(hls.instances).toEqual([{ source: 'https://cdn/a.m3u8', media: other, destroyed: false }]);
  expect(other.getAttribute('src')).toBeNull();
  detach();
  expect(hls.instances[0].destroyed).toBe(true);

  const safari = document.createElement('video');
  safari.canPlayType = (type) => (type === 'application/vnd.apple.mpegurl' ? 'maybe' : '');
  await attachStream(safari, 'https://cdn/b.m3u8', true, () => undefined);
  expect(safari.getAttribute('src')).toBe('https://cdn/b.m3u8');
  expect(hls.instances).toHaveLength(1);

  hls.supported = false;
  const errors: string[] = [];
  await attachStream(document.createElement('video'), 'https://cdn/c.m3u8', true, (kind) =>
    errors.push(kind),
  );
  expect(errors).toEqual(['unsupported']);
});

test('batch reject asks for a reason: confirm stays disabled until one is given, then one batch call carries it', async () => {
  wrap(
    <ListContextProvider value={{ selectedIds: [4, 5], onUnselectItems: vi.fn() } as never}>
      <ReviewBulkActions />
    </ListContextProvider>,
  );
  fireEvent.click(screen.getByRole('button', { name: '驳回' }));
  expect(await screen.findByText('确定驳回 2 个内容？')).toBeTruthy();
  const confirm = screen.getByRole('button', { name: '确认' }) as HTMLButtonElement;
  expect(confirm.disabled).toBe(true);
  fireEvent.change(screen.getByLabelText(/驳回原因/), { target: { value: '画质太差' } });
  expect(confirm.disabled).toBe(false);
  fireEvent.click(confirm);
  await waitFor(() =>
    expect(dataProvider.batch).toHaveBeenCalledWith('movie/review', 'reject', [4, 5], { reason: '画质太差' }),
  );
}, 20_000);

test('issue #18: a capped total (meta totalExact false) reads "10,000+"; an exact one as counted, 1,500', async () => {
  const list = (total: number, meta?: object) =>
    ({
      page: 1,
      perPage: 20,
      total,
      meta,
      setPage: vi.fn(),
      setPerPage: vi.fn(),
      hasNextPage: true,
    }) as never;
  const inLocale = (locale: 'zh-CN' | 'en-US', value: never) =>
    render(
      <AdminContext dataProvider={dataProvider} i18nProvider={createI18nProvider(locale)}>
        <ResourceContextProvider value="movie/review">
          <ListContextProvider value={value}>
            <ListPagination />
          </ListContextProvider>
        </ResourceContextProvider>
      </AdminContext>,
    );
  const cases = [
    ['zh-CN', list(10_000, { totalExact: false }), '第 1-20 条，共 10,000+ 条'],
    ['zh-CN', list(1500), '第 1-20 条，共 1,500 条'],
    ['en-US', list(10_000, { totalExact: false }), '1-20 of 10,000+'],
    ['en-US', list(1500), '1-20 of 1,500'],
  ] as const;
  for (const [locale, value, text] of cases) {
    const { unmount } = inLocale(locale, value);
    expect(await screen.findByText(text)).toBeTruthy();
    unmount();
  }
});

test('the form takes a description as long as the API does (a moved MacCMS one saves again), not one character more', () => {
  expect(validateDescription('长'.repeat(MAX_MOVIE_DESCRIPTION), {})).toBeUndefined();
  expect(validateDescription('长'.repeat(6000), {})).toBeUndefined();
  expect(validateDescription('长'.repeat(MAX_MOVIE_DESCRIPTION + 1), {})).toMatchObject({
    message: 'ra.validation.maxLength',
  });
});
