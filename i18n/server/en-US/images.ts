import type zh from '../zh-CN/images';

/** API messages of the images module. */
const images: Record<keyof typeof zh, string> = {
  'image.multipart': 'Upload as a multipart/form-data form with the file in the field "file"',
  'image.fileRequired': 'Choose an image file to upload',
  'image.empty': 'The file is empty',
  'image.tooLarge': 'The image is too large (limit {limit})',
  'image.type': 'Only {types} images are accepted (recognised by their content, whatever the file name)',
};
export default images;
