import { Box, Button, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { HOME_PATH } from '../routes/guard';

/** The exception pages of SPEC.md §2: 403, 404 (with retry and back) and 500. */
export function ExceptionPage({ status }: { status: 403 | 404 | 500 }) {
  const translate = useTranslate();
  const navigate = useNavigate();
  return (
    <Box component="section" sx={{ textAlign: 'center', py: 10 }} aria-labelledby="exception-title">
      <Typography variant="h1" component="p" sx={{ fontSize: 72, fontWeight: 600, color: 'text.secondary' }}>
        {status}
      </Typography>
      <Typography id="exception-title" variant="h5" component="h1" sx={{ my: 2 }}>
        {translate(`shell.page.${status}`)}
      </Typography>
      <Box sx={{ display: 'flex', gap: 2, justifyContent: 'center' }}>
        {status === 404 && (
          <Button variant="outlined" onClick={() => window.location.reload()}>
            {translate('shell.page.retry')}
          </Button>
        )}
        <Button
          variant="contained"
          onClick={() => (window.history.length > 1 ? navigate(-1) : navigate(HOME_PATH))}
        >
          {translate('shell.page.back')}
        </Button>
      </Box>
    </Box>
  );
}

export const NotFound = () => <ExceptionPage status={404} />;
export const Forbidden = () => <ExceptionPage status={403} />;
export const ServerError = () => <ExceptionPage status={500} />;
