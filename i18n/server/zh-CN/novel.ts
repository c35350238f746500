/** 小说版块（novel 模块）的接口消息。 */
const novel = {
  'novel.transition': '该小说当前为「{status}」，不能{action}',
  'novel.transitionBatch': '小说 #{id} 当前为「{status}」，不能{action}；本批未做任何修改',
  'novel.noChapters': '该小说还没有章节，不能上线',
  'novel.noChaptersBatch': '小说 #{id} 还没有章节，不能上线；本批未做任何修改',
  'novel.chapter.first': '已经是第一章，不能再上移',
  'novel.chapter.last': '已经是最后一章（共 {count} 章），不能再下移',
  'novel.reorder.stale': '章节列表已变化（现有 {count} 章），请刷新后重新排序',
  'novel.import.multipart': '请以 multipart/form-data 表单上传 TXT 文件（字段 file）',
  'novel.import.fileRequired': '请选择要导入的 TXT 文件',
  'novel.import.tooLarge': '文件过大（上限 {limit}）',
  'novel.import.notText': '这不是文本文件（含有二进制内容）',
  'novel.import.empty': '文件是空的',
  'novel.import.noChapters': '没有找到章节标题（如「第十二章 …」「第12章」「Chapter 12」）',
  'novel.import.chapterTooLong': '章节「{title}」超过 {max} 字符，请检查章节标题是否被识别',
  'novel.import.tooMany': '文件拆分出 {count} 章，一次最多导入 {max} 章',
  'novel.import.prefaceTitle': '序',
};
export default novel;
