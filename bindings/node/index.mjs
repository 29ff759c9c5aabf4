// ES module entry point: the same objects as the CommonJS entry (one native instance per thread). Node
// takes the named exports from index.js's module.exports literal, so they are listed there only
// (test/api.test.js checks that both entries export the same names).
export * from './index.js';
export { default } from './index.js';
