import { Chip } from '@mui/material';
import { useTranslate } from 'react-admin';
import { REGIONS } from '../../../common/actresses';
import { AvatarImage } from '../../images/AvatarImage';
import { ACTRESS_MSG } from './names';

/** Region codes the API accepts (common/actresses.ts), named in the UI's language. */
export const regionChoices = REGIONS.map((id) => ({ id, name: `${ACTRESS_MSG}.region.${id}` }));

export const visibleChoices = [
  { id: 'true', name: `${ACTRESS_MSG}.state.visible` },
  { id: 'false', name: `${ACTRESS_MSG}.state.hidden` },
];

/** Her avatar (decrypted by SecureImage), or her name's first character when she has none. */
export function ActressAvatar({
  name,
  avatar,
  size = 40,
}: {
  name?: string;
  avatar?: string;
  size?: number;
}) {
  return <AvatarImage src={avatar} alt={name ?? ''} size={size} fallback={name?.slice(0, 1) ?? ''} />;
}

export function RegionChip({ region }: { region?: string | null }) {
  const translate = useTranslate();
  if (!region) return null;
  return <Chip size="small" variant="outlined" label={translate(`${ACTRESS_MSG}.region.${region}`)} />;
}

export function VisibleChip({ visible }: { visible?: boolean }) {
  const translate = useTranslate();
  return (
    <Chip
      size="small"
      color={visible ? 'success' : 'default'}
      variant={visible ? 'filled' : 'outlined'}
      label={translate(`${ACTRESS_MSG}.state.${visible ? 'visible' : 'hidden'}`)}
    />
  );
}
