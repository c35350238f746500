/** 站点接口（site 模块）的接口消息。 */
const site = {
  'site.badKey': '站点密钥缺失或无效',
  'site.unknownPlatform': '没有这个平台：{platform}',
};
export default site;
