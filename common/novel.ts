/** The longest chapter (characters) the API stores: about 60 times a usual web-novel chapter. */
export const CHAPTER_MAX_CHARS = 200_000;

/** A novel's serial status (still being written, or finished). */
export const SERIAL_STATUSES = ['ongoing', 'completed'] as const;
export type SerialStatus = (typeof SERIAL_STATUSES)[number];
