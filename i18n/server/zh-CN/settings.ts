/** 系统设置版块（notices、promotion、site、statistics-settings、system 模块）的接口消息。 */
const settings = {
  'field.datetime': '应为带时区的日期时间，例如 2026-06-01T08:00:00+08:00',
  'field.duplicate': '不能有重复项',
  'field.image': '应为上传的图片或 http(s) 地址',
  'field.httpUrl': '应为 http:// 或 https:// 开头的地址',
  'notice.endBeforeStart': '结束时间必须晚于开始时间',
  'promotion.tooMany': '推广应用最多 {max} 个',
  'promotion.reorderStale': '应用列表已被他人修改，请刷新后重新排序',
  'site.badKey': '站点密钥缺失或无效',
  'site.unknownPlatform': '没有这个平台：{platform}',
};
export default settings;
