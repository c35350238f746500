import type en from '../en-US/images';

/** 图片组件（src/images：SecureImage、ImageInput）的文案。 */
const images: typeof en = {
  image: {
    loading: '图片加载中',
    unavailable: '图片无法显示',
    none: '暂无图片',
  },
  input: {
    choose: '选择图片',
    replace: '更换图片',
    remove: '移除图片',
    drop: '或拖放到这里',
    hint: '支持 JPEG、PNG、GIF、WebP，最大 %{limit}',
    progress: '上传进度',
    uploading: '上传中… %{percent}%',
    type: '只能上传 JPEG、PNG、GIF、WebP 图片',
    tooLarge: '图片超过 %{limit}',
    failed: '上传失败',
    uploaded: '图片已上传',
    none: '暂无图片',
  },
};
export default images;
