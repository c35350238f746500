import { Breadcrumbs as MuiBreadcrumbs, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import type { RouteMeta } from '../routes/types';

/** Section › screen, from the route table. */
export function Breadcrumbs({ meta, parent }: { meta?: RouteMeta; parent?: RouteMeta }) {
  const translate = useTranslate();
  if (!meta) return null;
  return (
    <MuiBreadcrumbs
      aria-label={translate('shell.navbar.breadcrumb')}
      sx={{ color: 'inherit', '& a': { color: 'inherit' } }}
    >
      <Typography color="inherit" variant="body2">
        {translate(meta.sectionLocale)}
      </Typography>
      {parent && (
        <Link to={parent.path}>
          <Typography color="inherit" variant="body2">
            {translate(parent.locale)}
          </Typography>
        </Link>
      )}
      <Typography color="inherit" variant="body2" aria-current="page" sx={{ fontWeight: 600 }}>
        {translate(meta.locale, { account: '', smart_count: 2 })}
      </Typography>
    </MuiBreadcrumbs>
  );
}
