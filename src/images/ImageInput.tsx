import AddPhotoAlternateOutlined from '@mui/icons-material/AddPhotoAlternateOutlined';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import {
  Box,
  Button,
  FormHelperText,
  IconButton,
  LinearProgress,
  Stack,
  Tooltip,
  Typography,
} from '@mui/material';
import { type ChangeEvent, type DragEvent, useEffect, useRef, useState } from 'react';
import {
  FieldTitle,
  InputHelperText,
  type InputProps,
  useInput,
  useNotify,
  useResourceContext,
  useTranslate,
  useTranslateLabel,
} from 'react-admin';
import { confirmLogout, navigate } from '../api/events';
import {
  API_PREFIX,
  type Envelope,
  LOGOUT_CODES,
  SESSION_INVALID_ERRCODE,
  SUCCESS_CODE,
  TOAST_DURATION,
} from '../api/http';
import { getLocale } from '../api/locale';
import { loginPathFor } from '../api/location';
import { clearToken, getToken } from '../api/storage';
import { getImageCipher } from './cipher';
import { imageMime } from './decrypt';
import { SecureImage } from './SecureImage';

export const UPLOAD_PATH = `${API_PREFIX}/admin/upload/image`;
/** The server's default IMAGE_MAX_BYTES, used until the session's cipher answer says the configured one. */
export const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;
const ACCEPT = 'image/jpeg,image/png,image/gif,image/webp';

export interface ImageInputProps extends Omit<InputProps<string>, 'source' | 'label' | 'helperText'> {
  source: string;
  label?: string;
  helperText?: string;
}

interface Uploaded {
  path: string;
  size: number;
  type: string;
  width?: number;
  height?: number;
}

const formatBytes = (n: number) =>
  n >= 1024 * 1024 ? `${+(n / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(n / 1024))} KB`;

/** The first bytes of a file (for the type check by magic bytes, like the server's). */
async function headOf(file: File): Promise<Uint8Array> {
  const part = file.slice(0, 16);
  if (typeof part.arrayBuffer === 'function') return new Uint8Array(await part.arrayBuffer());
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(part);
  });
}

/**
 * The stored path of an image (e.g. a cover), as a react-admin input: choose or drop a file, checked here first
 * (type by its bytes, size against the server's limit), uploaded with a progress bar, previewed with
 * SecureImage, removable. The value is the path the API answered, or '' for none. Upload failures are shown
 * under the field and as a notification, in the server's words.
 */
export function ImageInput({ source, label, helperText, ...rest }: ImageInputProps) {
  const { field, fieldState, id, isRequired } = useInput<string>({
    source,
    // '' (not null) for no image: the API's image fields are strings.
    parse: (v) => v ?? '',
    format: (v) => v ?? '',
    ...rest,
  });
  const resource = useResourceContext(rest);
  const translate = useTranslate();
  const notify = useNotify();
  const translateLabel = useTranslateLabel();
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const [maxBytes, setMaxBytes] = useState(DEFAULT_MAX_BYTES);
  const xhrRef = useRef<XMLHttpRequest | null>(null);
  const inputRef = useRef<HTMLInputElement | null>(null);
  const disabled = rest.disabled || rest.readOnly;

  useEffect(() => {
    let live = true;
    getImageCipher()
      .then((c) => live && typeof c.maxBytes === 'number' && setMaxBytes(c.maxBytes))
      .catch(() => {}); // the server checks the size anyway
    return () => {
      live = false;
      xhrRef.current?.abort();
    };
  }, []);

  const fail = (message: string) => {
    setProgress(null);
    setError(message);
    notify(message, { type: 'error', autoHideDuration: TOAST_DURATION, messageArgs: { _: message } });
  };

  const onAnswer = (xhr: XMLHttpRequest) => {
    let body: Envelope<Uploaded | { fields?: Record<string, string> } | null> | null = null;
    try {
      body = JSON.parse(xhr.responseText);
    } catch {
      body = null;
    }
    if (xhr.status < 200 || xhr.status >= 300 || !body || typeof body.code !== 'number') {
      fail(body?.msg || `${translate('images.input.failed')} (HTTP ${xhr.status})`);
      return;
    }
    if (body.code === SUCCESS_CODE) {
      setProgress(null);
      field.onChange((body.data as Uploaded).path);
      field.onBlur();
      return;
    }
    const fields = (body.data as { fields?: Record<string, string> } | null)?.fields;
    fail(fields?.file || body.msg || translate('images.input.failed'));
    // The session rules of the HTTP client (SPEC.md §8).
    if (body.errCode === SESSION_INVALID_ERRCODE) {
      clearToken();
      navigate(loginPathFor());
    } else if (LOGOUT_CODES.includes(body.code)) confirmLogout();
  };

  const upload = (file: File) => {
    xhrRef.current?.abort();
    const xhr = new XMLHttpRequest();
    xhrRef.current = xhr;
    xhr.open('POST', UPLOAD_PATH);
    const token = getToken();
    if (token) xhr.setRequestHeader('Admin-Token', token);
    xhr.setRequestHeader('Accept-Language', getLocale());
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0)
        setProgress(Math.min(100, Math.round((e.loaded / e.total) * 100)));
    };
    xhr.onload = () => {
      if (xhrRef.current === xhr) onAnswer(xhr);
    };
    xhr.onerror = () => {
      if (xhrRef.current === xhr) fail(translate('images.input.failed'));
    };
    const form = new FormData();
    form.append('file', file);
    setError(null);
    setProgress(0);
    xhr.send(form);
  };

  const choose = async (file: File | undefined) => {
    if (!file || disabled) return;
    setError(null);
    let head: Uint8Array;
    try {
      head = await headOf(file);
    } catch {
      head = new Uint8Array(0);
    }
    if (!imageMime(head)) return fail(translate('images.input.type'));
    if (file.size > maxBytes)
      return fail(translate('images.input.tooLarge', { limit: formatBytes(maxBytes) }));
    upload(file);
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    choose(e.dataTransfer.files?.[0]);
  };

  const labelId = `${id}-label`;
  const chooseId = `${id}-choose`;
  const helperId = `${id}-helper`;
  const uploading = progress !== null;
  const value = typeof field.value === 'string' ? field.value : '';
  const labelText = String(translateLabel({ label, source, resource }));

  return (
    <Box sx={{ mb: 2, width: '100%', maxWidth: 480 }}>
      <Typography id={labelId} component="div" variant="body2" color="text.secondary" sx={{ mb: 0.5 }}>
        <FieldTitle label={label} source={source} resource={resource} isRequired={isRequired} />
      </Typography>
      <Stack
        direction="row"
        spacing={2}
        onDragOver={(e) => {
          e.preventDefault();
          if (!disabled) setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        data-dropzone
        data-dragging={dragging || undefined}
        sx={{
          alignItems: 'center',
          p: 1.5,
          border: 1,
          borderStyle: 'dashed',
          borderRadius: 1,
          borderColor: error || fieldState.error ? 'error.main' : dragging ? 'primary.main' : 'divider',
          bgcolor: dragging ? 'action.hover' : undefined,
        }}
      >
        {value ? (
          <SecureImage src={value} alt={labelText} width={120} height={90} />
        ) : (
          <Box
            sx={{
              width: 120,
              height: 90,
              display: 'flex',
              alignItems: 'center',
              justifyContent: 'center',
              bgcolor: 'action.hover',
              borderRadius: 1,
              color: 'text.secondary',
            }}
          >
            <Typography variant="caption">{translate('images.input.none')}</Typography>
          </Box>
        )}
        <Stack spacing={1} sx={{ flex: 1, minWidth: 0 }}>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <Box
              component="input"
              ref={inputRef}
              id={id}
              type="file"
              accept={ACCEPT}
              disabled={disabled || uploading}
              aria-labelledby={`${labelId} ${chooseId}`}
              aria-describedby={helperId}
              aria-invalid={Boolean(error || fieldState.error)}
              onChange={(e: ChangeEvent<HTMLInputElement>) => {
                choose(e.target.files?.[0]);
                e.target.value = ''; // the same file may be chosen again
              }}
              sx={{
                position: 'absolute',
                width: '1px',
                height: '1px',
                overflow: 'hidden',
                clip: 'rect(0 0 0 0)',
                whiteSpace: 'nowrap',
                opacity: 0,
                '&:focus-visible + label': { outline: 2, outlineColor: 'primary.main', outlineOffset: 2 },
              }}
            />
            <Button
              component="label"
              htmlFor={id}
              id={chooseId}
              variant="outlined"
              size="small"
              startIcon={<AddPhotoAlternateOutlined />}
              disabled={disabled || uploading}
            >
              {translate(value ? 'images.input.replace' : 'images.input.choose')}
            </Button>
            {value && !disabled && (
              <Tooltip title={translate('images.input.remove')}>
                <span>
                  <IconButton
                    size="small"
                    aria-label={translate('images.input.remove')}
                    disabled={uploading}
                    onClick={() => {
                      setError(null);
                      field.onChange('');
                      field.onBlur();
                    }}
                  >
                    <DeleteOutlined fontSize="small" />
                  </IconButton>
                </span>
              </Tooltip>
            )}
          </Stack>
          {!uploading && (
            <Typography variant="caption" color="text.secondary">
              {translate('images.input.drop')}
            </Typography>
          )}
          {uploading && (
            <Box>
              <LinearProgress
                variant="determinate"
                value={progress}
                aria-label={translate('images.input.progress')}
              />
              <Typography variant="caption" color="text.secondary" aria-live="polite">
                {translate('images.input.uploading', { percent: progress })}
              </Typography>
            </Box>
          )}
        </Stack>
      </Stack>
      <Box id={helperId}>
        {error ? (
          <FormHelperText error>{error}</FormHelperText>
        ) : (
          <FormHelperText component="div" error={Boolean(fieldState.error)}>
            <InputHelperText
              error={fieldState.error?.message}
              helperText={helperText ?? translate('images.input.hint', { limit: formatBytes(maxBytes) })}
            />
          </FormHelperText>
        )}
      </Box>
    </Box>
  );
}
