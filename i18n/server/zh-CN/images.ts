/** 图片（images 模块）的接口消息。 */
const images = {
  'image.multipart': '请以 multipart/form-data 表单上传，文件放在 file 字段',
  'image.fileRequired': '请选择要上传的图片文件',
  'image.empty': '文件是空的',
  'image.tooLarge': '图片过大（上限 {limit}）',
  'image.type': '只支持 {types} 图片（按文件内容识别，与文件名无关）',
};
export default images;
