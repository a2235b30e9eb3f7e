// Resolves with the page's inner size once it is width × height, or after
// a second without getting there.
(width, height) => new Promise(resolve => {
  const size = () => [innerWidth, innerHeight];
  const done = () => { removeEventListener('resize', check); resolve(size()); };
  const check = () => { if (innerWidth === width && innerHeight === height) done(); };
  addEventListener('resize', check);
  setTimeout(done, 1000);
  check();
})
