import { expect, test } from 'vitest';
import { columnTree, treeOrder } from '../../src/components/columnTreeData';

/** Issue #17: the column pickers list the tree in reading order, and a parent counts its subtree's items. */
test('tree order, depth, path and subtree counts', () => {
  const c = (id: number, parentId: number | null, name: string, sort: number, itemCount: number) => ({
    id,
    parentId,
    name,
    sort,
    visible: true,
    itemCount,
  });
  const tree = columnTree([
    c(4, 1, '动作', 2, 5),
    c(2, null, '剧集', 2, 1),
    c(1, null, '电影', 1, 0),
    c(3, 1, '喜剧', 1, 7),
    c(5, 3, '黑色喜剧', 1, 2),
  ]);
  const flat = treeOrder(tree);
  expect(flat.map((n) => n.name)).toEqual(['电影', '喜剧', '黑色喜剧', '动作', '剧集']);
  expect(flat.map((n) => n.depth)).toEqual([0, 1, 2, 1, 0]);
  expect(flat.map((n) => n.subtreeCount)).toEqual([14, 9, 2, 5, 1]);
  expect(flat[2].path).toEqual(['电影', '喜剧', '黑色喜剧']);
});
