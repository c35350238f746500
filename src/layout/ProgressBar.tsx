import { LinearProgress } from '@mui/material';
import { type ReactNode, Suspense } from 'react';
import { useLoading, useTranslate } from 'react-admin';
import { useScreensLoading } from '../routes/lazy';

/** The thin navigation bar at the very top of the page (SPEC.md §2: a progress bar shows during navigation). */
export function ProgressBar() {
  const translate = useTranslate();
  return (
    <LinearProgress
      aria-label={translate('shell.loading')}
      sx={{ position: 'fixed', top: 0, left: 0, right: 0, height: 3, zIndex: (t) => t.zIndex.tooltip + 1 }}
    />
  );
}

/** The bar while a screen's code loads or react-admin loads data or saves (any query or mutation in flight). */
export function FetchProgress() {
  const fetching = useLoading();
  const screens = useScreensLoading();
  return fetching || screens ? <ProgressBar /> : null;
}

/** The bar while a lazily declared screen's code loads (`component: lazy(() => import(...))`). */
export function RouteSuspense({ children }: { children: ReactNode }) {
  return <Suspense fallback={<ProgressBar />}>{children}</Suspense>;
}
