/** 推广应用版块（promotion-apps 模块）的接口消息。 */
const promotionApps = {
  'promotion.tooMany': '推广应用最多 {max} 个',
  'promotion.reorderStale': '应用列表已被他人修改，请刷新后重新排序',
};
export default promotionApps;
