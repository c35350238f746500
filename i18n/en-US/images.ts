/** Messages of the image components (src/images: SecureImage, ImageInput), en-US. */
const images = {
  image: {
    loading: 'Loading image',
    unavailable: 'Image unavailable',
    none: 'No image',
  },
  input: {
    choose: 'Choose an image',
    replace: 'Replace image',
    remove: 'Remove image',
    drop: 'or drop it here',
    hint: 'JPEG, PNG, GIF or WebP, up to %{limit}',
    progress: 'Upload progress',
    uploading: 'Uploading… %{percent}%',
    type: 'Only JPEG, PNG, GIF and WebP images can be uploaded',
    tooLarge: 'The image is larger than %{limit}',
    failed: 'The upload failed',
    uploaded: 'Image uploaded',
    none: 'No image',
  },
};
export default images;
