/** 评论与留言（comment 模块）的接口消息。 */
const comment = {
  'comment.transition': '该评论当前为「{status}」，不能{action}',
  'comment.transitionBatch': '评论 #{id} 当前为「{status}」，不能{action}；本批未做任何修改',
  'guestbook.transition': '该留言当前为「{status}」，不能{action}',
  'guestbook.transitionBatch': '留言 #{id} 当前为「{status}」，不能{action}；本批未做任何修改',
  'comment.emptyWord': '去掉标点、空格和符号后为空，无法匹配',
  'comment.badAddress': '应为 IPv4 或 IPv6 地址，或 CIDR 网段（如 10.0.0.0/8）',
  'comment.loginRequired': '请先登录再发表',
  'comment.userBlocked': '该会员已被停用或封禁，不能发表',
  'comment.addressBlocked': '该地址已被禁止发表',
  'comment.tooSoon': '发表太频繁，请 {seconds} 秒后再试',
  'comment.blocked': '含有不允许发表的内容',
};
export default comment;
