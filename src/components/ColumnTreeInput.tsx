import { Box, Typography } from '@mui/material';
import { useMemo } from 'react';
import { AutocompleteInput, type AutocompleteInputProps, useRecordContext, useTranslate } from 'react-admin';
import { type ColumnNode, columnTree, treeOrder, useAllColumns } from './columnTreeData';

/** One column in a picker: indented by its depth, its items, and those of its subtree when it has children. */
function TreeOption() {
  const n = useRecordContext<ColumnNode>();
  const translate = useTranslate();
  if (!n) return null;
  return (
    <Box sx={{ pl: n.depth * 2.5, display: 'flex', gap: 1, alignItems: 'baseline', width: '100%' }}>
      <span>{n.name}</span>
      <Typography component="span" variant="caption" color="text.secondary" sx={{ ml: 'auto' }}>
        {n.children.length
          ? `${n.itemCount} · ${translate('shell.columns.subtree', { count: n.subtreeCount })}`
          : n.itemCount}
      </Typography>
    </Box>
  );
}

/** A column matches what is typed when its name or an ancestor's does (a parent's search shows its children). */
const matches = (filter: string, n: ColumnNode) =>
  !filter || n.path.some((name) => name.toLowerCase().includes(filter.trim().toLowerCase()));

/**
 * The one column picker (filters, editors, the change-column dialog, a column's parent), for movies and novels alike:
 * every column of `columns` (a column tree's react-admin resource; not `resource`, which a list's filter form sets) in tree order, indented, searchable by name, with
 * its own and its subtree's item counts.
 */
export function ColumnTreeInput({
  columns,
  source = 'columnId',
  ...props
}: Omit<AutocompleteInputProps, 'source' | 'choices'> & { columns: string; source?: string }) {
  const { data = [], isPending } = useAllColumns(columns);
  const choices = useMemo(() => treeOrder(columnTree(data)), [data]);
  return (
    <AutocompleteInput
      source={source}
      choices={choices}
      isPending={isPending}
      optionText={<TreeOption />}
      inputText={(n: ColumnNode) => n.path.join(' / ')}
      matchSuggestion={matches}
      {...props}
    />
  );
}
