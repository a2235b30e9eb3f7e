// Measures the top document: its scroll position, viewport,
// scrollable size and device pixel ratio.
JSON.stringify({
  scrollX, scrollY, innerWidth, innerHeight, dpr: devicePixelRatio,
  width: Math.max(document.documentElement.scrollWidth, document.body ? document.body.scrollWidth : 0),
  height: Math.max(document.documentElement.scrollHeight, document.body ? document.body.scrollHeight : 0),
})
