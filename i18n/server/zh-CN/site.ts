/** 站点接口（site 模块）的接口消息。 */
const site = {
  'site.badKey': '站点密钥缺失或无效',
  'site.unknownPlatform': '没有这个平台：{platform}',
  'site.badTimestamp': '签名时间戳（Site-Timestamp）缺失或与服务器时间相差超过 {window} 秒',
  'site.badSignature': '签名（Site-Signature）缺失、格式不正确或与请求不符',
  'site.noSecret': '尚未生成站点服务器密钥：请管理员在“基础设置”中生成',
  'site.replayed': '此签名已被使用过：每个签名请求只接受一次',
  'site.signatureRequired':
    '此接口只接受站点服务器签名的请求（Site-Timestamp 与 Site-Signature），浏览器密钥不能调用',
  'site.serverOnlyEvent':
    '“{type}”事件只能由站点服务器签名发送；浏览器密钥只能发送浏览、播放、搜索、广告曝光与点击、标签点击',
  'site.serverOnlyField':
    '只有站点服务器签名的请求才能填写此字段（浏览器请求的地址取自连接，会员身份需服务器签名）',
};
export default site;
