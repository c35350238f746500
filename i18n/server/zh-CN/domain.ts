/** 域名版块（domain 模块）的接口消息。 */
const domain = {
  'domain.host.empty': '域名不能为空',
  'domain.host.wildcard': '不支持通配符域名（*）',
  'domain.host.ip': '不能是 IP 地址，请填写域名',
  'domain.host.tooLong': '域名最长 253 个字符',
  'domain.host.label': '每一段只能含字母、数字和中间的连字符，最长 63 个字符',
  'domain.host.invalid': '不是有效的域名',
  'domain.host.single': '域名至少要有两段（如 example.com）',
  'domain.host.suffix': '这是公共后缀，不是可注册的域名',
  'domain.host.internal':
    '这是内部网络的主机名或地址（如 localhost、*.internal、内网 IP），不能作为推广域名；确需检测请由管理员加入“允许访问的内部主机”',
  'domain.channel': '渠道号只能含字母、数字、下划线和连字符',
  'domain.import.tooMany': '一次最多导入 {max} 行',
  'domain.import.problems': '有 {count} 行有问题，未导入任何域名；请修正或选择跳过问题行',
  'domain.import.duplicate': '与第 {line} 行重复',
  'domain.import.exists': '域名库中已有此域名',
  'domain.swap.same': '替换域名不能与原域名相同',
  'domain.swap.notBound': '原域名未绑定渠道 {channel}',
  'domain.swap.bound': '该域名已绑定渠道 {channel}',
  'domain.swap.notUsable': '只能换成备用或在用的域名',
  'domain.swap.nothing': '没有需要更改的绑定',
  'domain.pool.notEmpty': '该域名池还有 {count} 个域名，请先移走',
  'domain.resolve.none': '该域名池没有可用域名',
};
export default domain;
