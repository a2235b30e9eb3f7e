function fail(){console.error("mapped",new Error("x"))}fail();
//# sourceMappingURL=bundle.js.map
