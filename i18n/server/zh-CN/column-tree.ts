/** 栏目树（core/column-tree.ts，影视和小说共用）的接口消息。 */
const columns = {
  'column.hasItems': '该栏目下还有 {count} 个内容，请先把它们移到其他栏目',
  'column.hasChildren': '该栏目下还有 {count} 个子栏目，请先删除或移走它们',
  'column.cycle': '不能把栏目移到它自己或它的子栏目下',
  'column.sameTarget': '目标栏目不能是当前栏目',
};
export default columns;
