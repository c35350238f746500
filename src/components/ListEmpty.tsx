import { Box, type SvgIcon, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';

/** A list's empty state: its icon, `${messages}.empty` as the line and `${messages}.emptyHint` under it. */
export function ListEmpty({
  icon: Icon,
  messages,
  children,
}: {
  icon: typeof SvgIcon;
  messages: string;
  children?: ReactNode;
}) {
  const translate = useTranslate();
  return (
    <Box sx={{ textAlign: 'center', py: 8, color: 'text.secondary', width: '100%' }} role="status">
      <Icon sx={{ fontSize: 64 }} aria-hidden />
      <Typography variant="h6" component="p" color="text.primary">
        {translate(`${messages}.empty`)}
      </Typography>
      <Typography variant="body2">{translate(`${messages}.emptyHint`)}</Typography>
      {children}
    </Box>
  );
}
