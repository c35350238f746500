import { Chip } from '@mui/material';
import { useEffect, useState } from 'react';
import { useTranslate } from 'react-admin';
import { request } from '../../api/http';
import { SECTION_MSG, SOURCE_API, type SourceKind } from './names';

export interface Run {
  id: number;
  sourceId: number;
  sourceName: string;
  /** What the source serves: the log's ids name movies, novels or actresses. */
  sourceKind: SourceKind;
  kind: string;
  dryRun: boolean;
  status: 'running' | 'done' | 'failed' | 'cancelled';
  startedByName: string;
  pagesDone: number;
  pageCount: number;
  added: number;
  updated: number;
  skipped: number;
  failed: number;
  errorText: string;
  cancelRequested: boolean;
  startedAt: string;
  finishedAt: string | null;
  durationMs: number;
  log?: Record<string, unknown>[];
}

export interface SourceOption {
  id: number;
  name: string;
  kind: SourceKind;
}

/** The sources to pick from (a few dozen at most: one page of 100). */
export function useSources(): SourceOption[] {
  const [sources, setSources] = useState<SourceOption[]>([]);
  useEffect(() => {
    let live = true;
    request<{ list: SourceOption[] }>(SOURCE_API, { query: { page: 1, pageSize: 100 } })
      .then((r) => live && setSources(r.list))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  return sources;
}

const statusColor = { running: 'info', done: 'success', failed: 'error', cancelled: 'warning' } as const;

export function RunStatusChip({ status }: { status: Run['status'] }) {
  const translate = useTranslate();
  return (
    <Chip size="small" color={statusColor[status]} label={translate(`${SECTION_MSG}.status.${status}`)} />
  );
}

/** A duration in seconds, one decimal under a minute. */
export const seconds = (ms: number) => (ms < 60_000 ? (ms / 1000).toFixed(1) : String(Math.round(ms / 1000)));

/** A source's name, with its kind when it is not videos (the first and most common kind goes without saying). */
export const sourceLabel = (
  name: string,
  kind: SourceKind | undefined,
  translate: (key: string) => string,
) => (kind && kind !== 'vod' ? `${name} · ${translate(`${SECTION_MSG}.sourceKind.${kind}`)}` : name);
