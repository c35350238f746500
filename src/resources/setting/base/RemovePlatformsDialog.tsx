import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  List,
  ListItem,
  ListItemText,
} from '@mui/material';
import { useId } from 'react';
import { useTranslate } from 'react-admin';
import { BASE_MSG } from '../names';

export interface PlatformUsage {
  key: number;
  movies: number;
  notices: number;
  apps: number;
  snippets: number;
  total: number;
}

/** What uses a platform, as a sentence ("3 movies, 2 notices"): only the kinds that use it. */
export function usageText(u: PlatformUsage, translate: (key: string, options?: object) => string) {
  const parts = (['movies', 'notices', 'apps', 'snippets'] as const)
    .filter((k) => u[k] > 0)
    .map((k) => translate(`${BASE_MSG}.usage.${k}`, { smart_count: u[k] }));
  return parts.join(translate(`${BASE_MSG}.usage.separator`));
}

/** Asked before saving a platform list without platforms that content still uses. */
export function RemovePlatformsDialog({
  usage,
  names,
  onConfirm,
  onCancel,
}: {
  usage: PlatformUsage[] | null;
  names: Record<number, string>;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const translate = useTranslate();
  const titleId = useId();
  return (
    <Dialog open={usage !== null} onClose={onCancel} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <DialogTitle id={titleId}>{translate(`${BASE_MSG}.usage.title`)}</DialogTitle>
      <DialogContent>
        <DialogContentText>{translate(`${BASE_MSG}.usage.intro`)}</DialogContentText>
        <List dense>
          {(usage ?? []).map((u) => (
            <ListItem key={u.key} disableGutters>
              <ListItemText
                primary={`${names[u.key] ?? ''} (${u.key})`}
                secondary={usageText(u, translate)}
              />
            </ListItem>
          ))}
        </List>
        <DialogContentText>{translate(`${BASE_MSG}.usage.outro`)}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} autoFocus>
          {translate('ra.action.cancel')}
        </Button>
        <Button variant="contained" color="error" onClick={onConfirm}>
          {translate(`${BASE_MSG}.usage.confirm`)}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
