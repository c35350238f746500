import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import type { ResourceDataProvider } from '../api/dataProvider';
import { walkPages } from '../api/pages';

/** A column tree's data: its columns, the tree built from them (with subtree counts) and the reading order. */
export interface Column {
  id: number;
  parentId: number | null;
  name: string;
  sort: number;
  visible: boolean;
  itemCount: number;
}
export interface ColumnNode extends Column {
  depth: number;
  children: ColumnNode[];
  /** Items of the column and of every column under it (a parent's own count is often 0). */
  subtreeCount: number;
  /** Its ancestors' names and its own, from the root. */
  path: string[];
}

/** Builds the tree (children by sort, then name); orphans whose parent is missing become roots. */
export function columnTree(columns: Column[]): ColumnNode[] {
  const nodes = new Map<number, ColumnNode>(
    columns.map((c) => [c.id, { ...c, depth: 0, children: [], subtreeCount: 0, path: [] }]),
  );
  const roots: ColumnNode[] = [];
  for (const n of nodes.values()) {
    const parent = n.parentId == null ? undefined : nodes.get(n.parentId);
    (parent ? parent.children : roots).push(n);
  }
  const order = (list: ColumnNode[], depth: number, path: string[]): number => {
    list.sort((a, b) => a.sort - b.sort || a.name.localeCompare(b.name));
    let sum = 0;
    for (const n of list) {
      n.depth = depth;
      n.path = [...path, n.name];
      n.subtreeCount = n.itemCount + order(n.children, depth + 1, n.path);
      sum += n.subtreeCount;
    }
    return sum;
  };
  order(roots, 0, []);
  return roots;
}

/** The tree in reading order (each column, then its children): what a picker lists. */
export function treeOrder(roots: ColumnNode[]): ColumnNode[] {
  return roots.flatMap((n) => [n, ...treeOrder(n.children)]);
}

/** Every column of the tree, all pages. */
export function useAllColumns(resource: string) {
  const dataProvider = useDataProvider<ResourceDataProvider>();
  return useQuery({
    queryKey: [resource, 'all'],
    queryFn: async () =>
      (
        await walkPages((page, perPage) =>
          dataProvider.getList<Column & { id: number }>(resource, {
            pagination: { page, perPage },
            sort: { field: 'id', order: 'ASC' },
            filter: {},
          }),
        )
      ).rows,
  });
}
