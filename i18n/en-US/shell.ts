// Owned by the shell: messages for shell (en-US). Nested objects, merged into the en-US bundle by index.ts.
export default {};
