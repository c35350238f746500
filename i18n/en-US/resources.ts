// Owned by the shell: messages for resources (en-US). Nested objects, merged into the en-US bundle by index.ts.
export default {};
