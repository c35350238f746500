// Owned by the shell: messages for resources (zh-CN). Nested objects, merged into the zh-CN bundle by index.ts.
export default {};
