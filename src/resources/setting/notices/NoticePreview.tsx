import CampaignIcon from '@mui/icons-material/Campaign';
import { Box, Paper, Typography } from '@mui/material';
import { keyframes } from '@mui/material/styles';
import { useTranslate } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { sanitizeRichText } from '../../../../server/core/rich-text';
import { NOTICE_MSG } from '../names';

const scroll = keyframes`
  from { transform: translateX(0); }
  to { transform: translateX(-100%); }
`;

/** How the marquee line scrolls across the site's header: right to left, in a loop, paused while hovered. */
export function MarqueePreview({ text }: { text: string }) {
  const translate = useTranslate();
  const seconds = Math.max(6, Math.round(text.length / 4));
  return (
    <Box
      role="img"
      aria-label={`${translate(`${NOTICE_MSG}.preview.marquee`)}: ${text}`}
      sx={{
        display: 'flex',
        alignItems: 'center',
        gap: 1,
        px: 1,
        py: 0.75,
        borderRadius: 1,
        // The site's notice bar: the same light amber in both themes, with dark text (contrast above 12:1).
        bgcolor: '#fff8e1',
        color: 'rgba(0, 0, 0, 0.87)',
        overflow: 'hidden',
      }}
    >
      <CampaignIcon fontSize="small" aria-hidden />
      <Box sx={{ overflow: 'hidden', flex: 1, whiteSpace: 'nowrap' }}>
        <Box
          component="span"
          data-testid="marquee-track"
          sx={{
            display: 'inline-block',
            pl: '100%',
            animation: `${scroll} ${seconds}s linear infinite`,
            '&:hover': { animationPlayState: 'paused' },
            '@media (prefers-reduced-motion: reduce)': { animation: 'none', pl: 0 },
          }}
        >
          {text || translate(`${NOTICE_MSG}.preview.empty`)}
        </Box>
      </Box>
    </Box>
  );
}

/**
 * How the pop-up looks on the site. Its content goes through the same sanitizer as on the server (whitelisted tags,
 * http(s) links only), so the preview shows exactly what will be stored and nothing in it can run.
 */
export function PopupPreview({ title, content }: { title: string; content: string }) {
  const translate = useTranslate();
  const html = sanitizeRichText(content);
  return (
    <Box
      sx={{
        p: 3,
        borderRadius: 1,
        bgcolor: 'rgba(0, 0, 0, 0.45)',
        display: 'flex',
        justifyContent: 'center',
      }}
    >
      <Paper
        role="group"
        aria-label={translate(`${NOTICE_MSG}.preview.popup`)}
        elevation={8}
        sx={{ width: '100%', maxWidth: 360, p: 2 }}
      >
        <Typography component="p" variant="h6" sx={{ mb: 1 }}>
          {title}
        </Typography>
        <Box
          data-testid="popup-body"
          sx={{ '& p': { my: 0.5 }, '& a': { color: 'primary.main' }, wordBreak: 'break-word' }}
          // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized by the whitelist sanitizer just above
          dangerouslySetInnerHTML={{ __html: html }}
        />
        <Box sx={{ mt: 2, textAlign: 'right' }}>
          <Box
            component="span"
            aria-hidden
            sx={{
              display: 'inline-block',
              px: 2,
              py: 0.5,
              borderRadius: 1,
              bgcolor: 'primary.main',
              color: 'primary.contrastText',
              fontSize: 14,
            }}
          >
            {translate(`${NOTICE_MSG}.preview.close`)}
          </Box>
        </Box>
      </Paper>
    </Box>
  );
}

/** The live preview of the notice being edited. */
export function NoticePreview() {
  const translate = useTranslate();
  const [type, title, content] = useWatch({ name: ['type', 'title', 'content'] }) as [string, string, string];
  return (
    <Box component="section" aria-label={translate(`${NOTICE_MSG}.preview.title`)} sx={{ width: '100%' }}>
      <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
        {translate(`${NOTICE_MSG}.preview.title`)}
      </Typography>
      {type === 'popup' ? (
        <PopupPreview title={title ?? ''} content={content ?? ''} />
      ) : (
        <MarqueePreview text={(content ?? '').replace(/\s+/g, ' ').trim()} />
      )}
    </Box>
  );
}
