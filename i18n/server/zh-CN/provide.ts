/** 资源接口（provide 模块，MacCMS 的 /api.php/provide/vod/）的消息。 */
const provide = {
  'provide.closed': '本站未开放资源接口',
  'provide.key': '接口密钥错误',
  'provide.int': '参数 {param} 须为 {min} 到 {max} 之间的整数',
  'provide.enum': '参数 {param} 只能是 {values}',
  'provide.ids': '参数 ids 须为以逗号分隔的编号，至多 {max} 个',
  'provide.tooLong': '参数 {param} 至多 {max} 个字符',
  'provide.pageTooLarge': '本页章节共 {size} MB，超过上限 {max} MB：请减小 pagesize，或按 ids 少量采集',
};
export default provide;
