import InboxIcon from '@mui/icons-material/Inbox';
import { Box, Card, Typography } from '@mui/material';
import { Title, useTranslate } from 'react-admin';

/**
 * The review queue. Until the movies API exists (issue #3) it is an honest empty list, not an error and not a
 * call to an endpoint that does not exist.
 */
export function ReviewList() {
  const translate = useTranslate();
  return (
    <Card sx={{ mt: 2 }}>
      <Title title={translate('resources.movie/review.name')} />
      <Box sx={{ textAlign: 'center', py: 8, color: 'text.secondary' }} role="status">
        <InboxIcon sx={{ fontSize: 64 }} aria-hidden />
        <Typography variant="h6" component="p" color="text.primary">
          {translate('resources.movie/review.empty')}
        </Typography>
        <Typography variant="body2">{translate('resources.movie/review.emptyHint')}</Typography>
      </Box>
    </Card>
  );
}
