import { mergeMessages } from '../../discover';
import type en from '../../en-US/resources';

/** 各版块的资源文案：本目录下每个版块一个文件（与 en-US 同名、同结构），自动收集，无需在此登记。 */
const resources: typeof en = mergeMessages<typeof en>(
  import.meta.glob<{ default: typeof en }>(['./*.ts', '!./index.ts'], { eager: true }),
);
export default resources;
