import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import DownloadIcon from '@mui/icons-material/Download';
import { Box, Button, FormControlLabel, Radio, RadioGroup, Skeleton, Typography } from '@mui/material';
import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { request } from '../../api/http';
import { AGENT_MSG } from './names';

/** qrcode.react only loads with an agent's edit page. */
const QrCode = lazy(() => import('qrcode.react').then((m) => ({ default: m.QRCodeCanvas })));

export const STORE_API = 'admin/domain/domains';

/**
 * A domain as the agent's screen shows it: `hostname` as stored (ASCII: an internationalised name in punycode) and
 * `unicode` as the domain store answers it (the name decoded; a look-alike one stays in punycode).
 */
export interface BoundDomain {
  id: number;
  hostname: string;
  unicode?: string;
  status: string;
  role: string;
}

/** A link in both spellings of its host: the same when the host is plain ASCII (or a look-alike kept in punycode). */
export interface PromotionLinkForms {
  ascii: string;
  unicode: string;
}

/** The agent's promotion link: a bound active domain, else the site's active main domain with the code. */
export function promotionLink(
  channel: string,
  bound: BoundDomain[],
  main: Pick<BoundDomain, 'hostname' | 'unicode'> | null,
): PromotionLinkForms | null {
  const own = bound.find((d) => d.status === 'active');
  const host = own ?? main;
  if (!host) return null;
  const rest = own ? '/' : `/?channel=${encodeURIComponent(channel)}`;
  return {
    ascii: `https://${host.hostname}${rest}`,
    unicode: `https://${host.unicode ?? host.hostname}${rest}`,
  };
}

/** Each domain with its Unicode name from the domain store (the agent's domains API gives the stored name only). */
export async function withUnicode(channel: string, list: BoundDomain[]): Promise<BoundDomain[]> {
  if (!list.length || !list.some((d) => d.hostname.includes('xn--'))) return list;
  const store = await request<{ list: BoundDomain[] }>(STORE_API, {
    query: { channel, pageSize: 100 },
    quiet: true,
  }).catch(() => ({ list: [] as BoundDomain[] }));
  const names = new Map(store.list.map((d) => [d.id, d.unicode]));
  return list.map((d) => ({ ...d, unicode: names.get(d.id) ?? d.unicode }));
}

/**
 * The link with its QR code. The operator reads it with its host in Unicode (`https://阅读7.cn/`), and copies
 * whichever spelling they pick: the Unicode one for people, the punycode one for places that take ASCII only. The
 * QR code holds the punycode one, which every scanner and browser opens.
 */
export function PromotionLink({ channel, bound }: { channel: string; bound: BoundDomain[] }) {
  const translate = useTranslate();
  const notify = useNotify();
  const formId = useId();
  const [main, setMain] = useState<BoundDomain | null | undefined>(undefined);
  const [form, setForm] = useState<keyof PromotionLinkForms>('unicode');
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    request<{ list: BoundDomain[] }>(STORE_API, {
      query: { role: 'main', status: 'active', pageSize: 10 },
      quiet: true,
    })
      .then((r) => setMain(r.list[0] ?? null))
      .catch(() => setMain(null));
  }, []);
  if (main === undefined) return <Skeleton height={120} />;
  const link = promotionLink(channel, bound, main);
  if (!link) return <Typography color="text.secondary">{translate(`${AGENT_MSG}.link.none`)}</Typography>;
  const shown = link[form];
  const copy = async () => {
    await navigator.clipboard?.writeText(shown).catch(() => undefined);
    notify(`${AGENT_MSG}.action.copied`, { type: 'success' });
  };
  const download = () => {
    const canvas = box.current?.querySelector('canvas');
    if (!canvas) return;
    const a = document.createElement('a');
    a.href = canvas.toDataURL('image/png');
    a.download = `agent-${channel}.png`;
    a.click();
  };
  return (
    <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap' }}>
      <Box ref={box} sx={{ bgcolor: '#fff', p: 1, borderRadius: 1, lineHeight: 0 }}>
        <Suspense fallback={<Skeleton variant="rectangular" width={128} height={128} />}>
          <QrCode value={link.ascii} size={128} role="img" aria-label={translate(`${AGENT_MSG}.link.qr`)} />
        </Suspense>
      </Box>
      <Box sx={{ minWidth: 0, flex: 1 }}>
        <Typography variant="body2" color="text.secondary">
          {translate(`${AGENT_MSG}.link.hint`)}
        </Typography>
        <Typography
          component="code"
          data-testid="promotion-link"
          sx={{ overflowWrap: 'anywhere', display: 'block', my: 1 }}
        >
          {shown}
        </Typography>
        {link.ascii !== link.unicode && (
          <>
            <Typography variant="body2" color="text.secondary" id={formId}>
              {translate(`${AGENT_MSG}.link.form`)}
            </Typography>
            <RadioGroup
              row
              aria-labelledby={formId}
              value={form}
              onChange={(e) => setForm(e.target.value as keyof PromotionLinkForms)}
              sx={{ mb: 1 }}
            >
              <FormControlLabel
                value="unicode"
                control={<Radio size="small" />}
                label={translate(`${AGENT_MSG}.link.unicode`)}
              />
              <FormControlLabel
                value="ascii"
                control={<Radio size="small" />}
                label={translate(`${AGENT_MSG}.link.ascii`)}
              />
            </RadioGroup>
          </>
        )}
        <Box sx={{ display: 'flex', gap: 1 }}>
          <Button size="small" variant="outlined" startIcon={<ContentCopyIcon />} onClick={copy}>
            {translate(`${AGENT_MSG}.action.copy`)}
          </Button>
          <Button size="small" startIcon={<DownloadIcon />} onClick={download}>
            {translate(`${AGENT_MSG}.action.download`)}
          </Button>
        </Box>
      </Box>
    </Box>
  );
}
