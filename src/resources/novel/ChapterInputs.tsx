import { Typography } from '@mui/material';
import { useDeferredValue } from 'react';
import { maxLength, required, TextInput, useLocaleState, useTranslate } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { CHAPTER_MAX_CHARS } from '../../../common/novel';
import { countWords } from '../../../common/words';
import { CHAPTER_MSG } from './names';

/**
 * The words of the text being typed, counted as the API counts them (common/words.ts, the same function):
 * Chinese characters one each, other words one each. Deferred, so a long chapter never slows typing down.
 */
export function WordCounter({ source = 'content' }: { source?: string }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const text = useWatch({ name: source }) as string | undefined;
  const deferred = useDeferredValue(text ?? '');
  const words = countWords(deferred);
  return (
    <Typography
      variant="body2"
      color="text.secondary"
      role="status"
      aria-live="polite"
      data-testid="word-count"
    >
      {translate(`${CHAPTER_MSG}.wordCounter`, {
        words: words.toLocaleString(locale),
        chars: deferred.length.toLocaleString(locale),
      })}
    </Typography>
  );
}

/** Title and the plain-text editor with its live word count; shared by create and edit. */
export function ChapterInputs() {
  return (
    <>
      <TextInput source="title" validate={[required(), maxLength(200)]} fullWidth />
      <TextInput
        source="content"
        multiline
        minRows={18}
        maxRows={40}
        fullWidth
        validate={maxLength(CHAPTER_MAX_CHARS)}
        helperText={false}
        sx={{ '& textarea': { lineHeight: 1.8 } }}
      />
      <WordCounter />
    </>
  );
}
