window.small = 1;
//# sourceMappingURL=/missing.js.map
