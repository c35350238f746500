import { sectionPermissions } from '../permissions';

/** Image uploads: every operator edits content with pictures. */
export const imagesPermissions = sectionPermissions('images', ['edit'], ['edit']);
