// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { AdminContext, ResourceContextProvider, SimpleForm, testDataProvider } from 'react-admin';
import { afterEach, expect, test, vi } from 'vitest';
import { createI18nProvider } from '../../src/i18n';
import { EpisodeLinesInput, linesOf, playsOf } from '../../src/resources/movie/EpisodeLinesInput';

/** Issue #49: the movie form's lines × episodes (add, reorder, remove, paste with each bad piece named). */

afterEach(cleanup);

const sources = [
  { id: 7, name: '线路一' },
  { id: 9, name: '线路二' },
];

function form(record: Record<string, unknown>, onSubmit: (v: any) => void) {
  const dataProvider = testDataProvider({
    getList: (async () => ({ data: sources, total: sources.length })) as never,
  });
  return render(
    <AdminContext dataProvider={dataProvider} i18nProvider={createI18nProvider('zh-CN')}>
      <ResourceContextProvider value="movie/review">
        <SimpleForm record={record} onSubmit={onSubmit}>
          <EpisodeLinesInput />
        </SimpleForm>
      </ResourceContextProvider>
    </AdminContext>,
  );
}

test('flat plays read as lines in line then episode order, and are renumbered back', () => {
  const lines = linesOf([
    { sourceId: 9, line: 1, name: 'HD', path: 'x', sort: 0 },
    { sourceId: 7, line: 0, name: '第2集', path: 'b', sort: 1 },
    { sourceId: 7, line: 0, name: '第1集', path: 'a', sort: 0 },
  ]);
  expect(lines).toEqual([
    {
      sourceId: 7,
      episodes: [
        { name: '第1集', path: 'a' },
        { name: '第2集', path: 'b' },
      ],
    },
    { sourceId: 9, episodes: [{ name: 'HD', path: 'x' }] },
  ]);
  expect(playsOf(lines).map((p) => [p.line, p.sort, p.name])).toEqual([
    [0, 0, '第1集'],
    [0, 1, '第2集'],
    [1, 0, 'HD'],
  ]);
});

test('add a line and episodes, reorder and remove one, paste a list with a bad piece named; saved as flat plays', async () => {
  const onSubmit = vi.fn();
  form({ plays: [] }, onSubmit);
  const add = await screen.findByRole('button', { name: '添加线路' });
  await waitFor(() => expect((add as HTMLButtonElement).disabled).toBe(false));
  fireEvent.click(add);
  const line = await screen.findByRole('group', { name: '线路 1' });
  fireEvent.change(within(line).getByLabelText('路径或地址 1'), { target: { value: 'e1.m3u8' } });
  fireEvent.change(within(line).getByLabelText('名称 1'), { target: { value: '第1集' } });
  fireEvent.click(within(line).getByRole('button', { name: '添加一集' }));
  fireEvent.change(within(line).getByLabelText('路径或地址 2'), { target: { value: 'e2.m3u8' } });
  fireEvent.change(within(line).getByLabelText('名称 2'), { target: { value: '第2集' } });
  // move episode 2 up, then back down
  fireEvent.click(within(line).getByRole('button', { name: '第 2 集上移' }));
  expect((within(line).getByLabelText('名称 1') as HTMLInputElement).value).toBe('第2集');
  fireEvent.click(within(line).getByRole('button', { name: '第 1 集下移' }));
  expect((within(line).getByLabelText('名称 1') as HTMLInputElement).value).toBe('第1集');

  fireEvent.click(within(line).getByRole('button', { name: '粘贴列表' }));
  const dialog = await screen.findByRole('dialog', { name: '粘贴剧集到线路 1' });
  fireEvent.change(within(dialog).getByLabelText('剧集列表'), {
    target: { value: '第3集$https://a.example/3.m3u8#第4集$javascript:alert(1)#第5集$e5.m3u8' },
  });
  expect(within(dialog).getByText('将添加 2 集')).toBeTruthy();
  expect(
    within(dialog).getByText(/第 2 段（第4集\$javascript:alert\(1\)）：不是 http\(s\) 地址或路径/),
  ).toBeTruthy();
  fireEvent.click(within(dialog).getByRole('button', { name: '添加' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  expect(within(line).getByText('共 4 集')).toBeTruthy();

  fireEvent.click(within(line).getByRole('button', { name: '删除第 1 集' }));
  expect(within(line).getByText('共 3 集')).toBeTruthy();

  fireEvent.click(screen.getByRole('button', { name: '添加线路' }));
  const second = await screen.findByRole('group', { name: '线路 2' });
  fireEvent.change(within(second).getByLabelText('路径或地址 1'), { target: { value: 'hd.mp4' } });

  fireEvent.click(screen.getByRole('button', { name: '保存' }));
  await waitFor(() => expect(onSubmit).toHaveBeenCalled());
  expect(onSubmit.mock.calls[0][0].plays).toEqual([
    { sourceId: 7, line: 0, name: '第2集', path: 'e2.m3u8', sort: 0 },
    { sourceId: 7, line: 0, name: '第3集', path: 'https://a.example/3.m3u8', sort: 1 },
    { sourceId: 7, line: 0, name: '第5集', path: 'e5.m3u8', sort: 2 },
    { sourceId: 7, line: 1, name: '', path: 'hd.mp4', sort: 0 },
  ]);
}, 60_000);

test('an episode without a path blocks the save', async () => {
  const onSubmit = vi.fn();
  form({ plays: [{ sourceId: 7, line: 0, name: '第1集', path: 'a', sort: 0 }] }, onSubmit);
  const line = await screen.findByRole('group', { name: '线路 1' });
  fireEvent.click(within(line).getByRole('button', { name: '添加一集' }));
  fireEvent.click(screen.getByRole('button', { name: '保存' }));
  expect(await screen.findAllByText('必填')).not.toHaveLength(0);
  expect(onSubmit).not.toHaveBeenCalled();
}, 30_000);
