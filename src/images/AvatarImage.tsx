import { Avatar } from '@mui/material';
import type { ReactNode } from 'react';
import { SecureImage } from './SecureImage';

/**
 * A round avatar: the uploaded image (decrypted by SecureImage) or, when there is none, `fallback` (initials, the
 * default head) in MUI's Avatar.
 */
export function AvatarImage({
  src,
  alt,
  size = 40,
  fallback,
  fallbackSrc,
}: {
  src?: string | null;
  alt: string;
  size?: number;
  fallback?: ReactNode;
  fallbackSrc?: string;
}) {
  if (!src)
    return (
      <Avatar aria-hidden src={fallbackSrc} alt="" sx={{ width: size, height: size, fontSize: size * 0.45 }}>
        {fallback}
      </Avatar>
    );
  return (
    <SecureImage
      src={src}
      alt={alt}
      width={size}
      height={size}
      sx={{ borderRadius: '50%', overflow: 'hidden', '& img': { objectFit: 'cover' } }}
    />
  );
}
