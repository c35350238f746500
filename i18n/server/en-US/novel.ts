import type zh from '../zh-CN/novel';

/** API messages of the novel module, en-US. */
const novel: Record<keyof typeof zh, string> = {
  'novel.transition': 'This novel is {status}; it cannot be {action}',
  'novel.transitionBatch':
    'Novel #{id} is {status} and cannot be {action}; nothing in this batch was changed',
  'novel.noChapters': 'This novel has no chapters yet; it cannot go online',
  'novel.noChaptersBatch':
    'Novel #{id} has no chapters yet and cannot go online; nothing in this batch was changed',
  'novel.chapter.first': 'This is the first chapter; it cannot move up',
  'novel.chapter.last': 'This is the last chapter (of {count}); it cannot move down',
  'novel.reorder.stale': 'The chapters changed meanwhile (there are {count} now); reload and reorder again',
  'novel.import.multipart': 'Upload the TXT file as a multipart/form-data form (field file)',
  'novel.import.fileRequired': 'Choose a TXT file to import',
  'novel.import.tooLarge': 'The file is too large (at most {limit})',
  'novel.import.notText': 'This is not a text file (it has binary content)',
  'novel.import.empty': 'The file is empty',
  'novel.import.noChapters': 'No chapter headings found (such as "第十二章 …", "第12章" or "Chapter 12")',
  'novel.import.chapterTooLong':
    'The chapter "{title}" is longer than {max} characters; check that its headings were recognised',
  'novel.import.tooMany': 'The file splits into {count} chapters; one import takes at most {max}',
  'novel.import.prefaceTitle': 'Preface',
};
export default novel;
