import { mergeMessages } from '../../discover';

/**
 * Every section's resource messages in react-admin's shape: resources.<resource>.{name, fields, filters, action,
 * notifications, page}. One file per section beside this one, found rather than listed (named like the section's
 * folder under src/resources); zh-CN has the same files, each typed against its en-US twin.
 */
const resources = mergeMessages<Record<string, Record<string, unknown>>>(
  import.meta.glob<{ default: Record<string, Record<string, unknown>> }>(['./*.ts', '!./index.ts'], {
    eager: true,
  }),
);
export default resources;
