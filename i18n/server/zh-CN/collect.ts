/** 采集版块（collect 模块）的接口消息。 */
const collect = {
  'collect.url':
    '请填写资源站的 http(s) 接口地址（如 https://example.com/api.php/provide/vod/），不能带账号密码',
  'collect.skippedBound': '已标记跳过的分类不能同时绑定栏目',
  'collect.pageOrder': '结束页不能小于起始页',
  'collect.pageSpan': '一次最多采集 {max} 页，请分几次采集',
  'collect.disabled': '该资源站已停用',
  'collect.busy': '该资源站正在采集（任务 {id}），请等它结束或先取消',
  'collect.notRunning': '该任务已结束，不能取消',
  'collect.fail.refused': '无法连接资源站：{detail}',
  'collect.fail.http': '资源站返回了 HTTP {detail}',
  'collect.fail.notJson': '资源站返回的不是 JSON（开头：{detail}）',
  'collect.fail.notXml': '资源站返回的不是 XML（{detail}）',
  'collect.fail.shape': '资源站返回的数据格式不对（{detail}）',
  'collect.fail.remoteError': '资源站拒绝了请求：{detail}',
  'collect.fail.tooManyPages': '资源站说有 {detail} 页，超过一次采集的上限；请按页码范围或更短的时间采集',
  'collect.fail.noOutbound': '采集需要服务器版（演示模式不能访问外部网站）',
  'collect.fail.interrupted': '已中断：采集中服务器停止了（请重新采集）',
  'collect.fail.internal': '采集出错：{detail}',
  'collect.refused.scheme': '只支持 http 和 https 地址',
  'collect.refused.address': '地址是内网、本机或保留地址，未在允许列表中',
  'collect.refused.dns': '域名解析失败',
  'collect.refused.size': '返回内容太大，超过上限',
  'collect.refused.timeout': '资源站响应超时',
  'collect.refused.redirects': '跳转次数太多，或跳转到了不允许的地址',
  'collect.refused.network': '网络错误，连接失败',
};
export default collect;
